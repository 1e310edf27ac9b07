// The rules and messages of the fields a person types, in one place for the web apps, the gateway and
// the owning services (which check again where they enforce a business rule). Plain TypeScript with no
// dependency: it runs in the browser and in Node. Wording the spec fixes is the spec's, word for word.
export * from './problem.js';
export * from './handle.js';
export * from './wallet.js';
export * from './email.js';
export * from './password.js';
export * from './sign-in.js';
export * from './post-url.js';
export * from './video.js';
export * from './profile-image.js';
export * from './clipper-application.js';
export * from './placeholder-streamer.js';
export * from './hold-decision.js';
export * from './reject-reason.js';
export * from './stream-time.js';
export * from './cpm-campaign.js';
export * from './hire-request.js';
export * from './hire-rating.js';
export * from './token.js';
export * from './clipper-profile.js';
export * from './x-sign-in.js';
export * from './email-links.js';
export * from './guide.js';
export * from './appeal.js';
export * from './decision-reason.js';
export * from './api-key.js';
export * from './webhook.js';
