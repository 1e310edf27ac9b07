// Demo data for a fresh local platform, written through the public API (the same rules as any user).
// Runs only when the platform has no streamer yet, so a second `npm start` changes nothing.
const PASSWORD = 'clipit-demo';
const DEMO_ACCOUNTS = [
  {
    email: 'demo.streamer@clipit.local',
    displayName: 'Demo Streamer',
    twitterHandle: 'demo_streamer',
    walletAddress: 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW',
    role: 'streamer',
    tokenLink: 'https://pump.fun/coin/DEMOclip1111111111111111111111111111111pump',
    password: PASSWORD,
  },
  {
    email: 'demo.clipper@clipit.local',
    displayName: 'Demo Clipper',
    twitterHandle: 'demo_clipper',
    walletAddress: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
    role: 'clipper',
    password: PASSWORD,
  },
];

/** Answers a line describing what it did; throws only when the API refuses in an unexpected way. */
export async function seedDemoData(baseUrl) {
  const streamers = await fetch(`${baseUrl}/api/streamers`);
  if (!streamers.ok) throw new Error(`GET /api/streamers answered ${streamers.status}: ${await streamers.text()}`);
  if ((await streamers.json()).length > 0) return 'demo data: the platform already has streamers, nothing seeded';
  const created = [];
  for (const account of DEMO_ACCOUNTS) {
    const res = await fetch(`${baseUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    if (res.status === 201) created.push(`@${account.twitterHandle}`);
    else if (res.status !== 409) throw new Error(`seeding @${account.twitterHandle}: ${res.status}: ${await res.text()}`);
    else await res.arrayBuffer();
  }
  return created.length > 0
    ? `demo data: signed up ${created.join(' and ')} (password "${PASSWORD}"); the streamer's token is listed by GET /api/tokens`
    : 'demo data: demo accounts already exist';
}
