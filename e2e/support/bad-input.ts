// The bad-input suite's parts: the operations of the gateway's OpenAPI document, a fixed corpus of
// hostile requests built from each operation's declaration (its path parameters, body schema and
// security), and a raw HTTP client that sends exactly those bytes with a timeout. Nothing here is
// random: the same document gives the same requests, in the same order.
import { API_KEY_MESSAGES } from '@clipit/field-rules';
import http from 'node:http';

type Json = Record<string, unknown>;

export interface Operation {
  operationId: string;
  method: string;
  /** The document's template path, e.g. `/api/submissions/uploads/{videoId}`. */
  template: string;
  params: string[];
  /** The route needs the session cookie (the document's `sessionCookie` scheme). */
  session: boolean;
  /** The route needs the admin bearer token (the document's `adminBearer` scheme). */
  bearer: boolean;
  /** The route authenticates by a token of its own (the document's `uploadToken`), never by the cookie: the Origin rule does not bind it. */
  cookieless: boolean;
  /** The route needs an API key (the v1 document's `apiKey` scheme). */
  apiKey: boolean;
  /** The JSON body schema, references resolved; undefined when the route takes no JSON body. */
  jsonBody: Json | undefined;
  /** The multipart form's file field and its media type, when the route also takes a form. */
  multipart: { field: string; mediaType: string } | undefined;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isWrite = (op: Operation) => STATE_CHANGING.has(op.method);

function fileFieldOf(form: Json | undefined): Operation['multipart'] {
  if (!form) return undefined;
  const props = ((form['schema'] as Json | undefined)?.['properties'] ?? {}) as Record<string, Json>;
  const [field, schema] = Object.entries(props).find(([, s]) => typeof s['contentMediaType'] === 'string') ?? ['file', {}];
  return { field, mediaType: String(schema['contentMediaType'] ?? 'application/octet-stream') };
}

/** Every operation of an OpenAPI 3.1 document, `$ref`s into components.schemas resolved. */
export function operationsOf(doc: Json): Operation[] {
  const schemas = ((doc['components'] as Json | undefined)?.['schemas'] ?? {}) as Record<string, Json>;
  const resolve = (schema: unknown, depth = 0): unknown => {
    if (depth > 20 || typeof schema !== 'object' || schema === null) return schema;
    if (Array.isArray(schema)) return schema.map((s) => resolve(s, depth + 1));
    const ref = (schema as Json)['$ref'];
    if (typeof ref === 'string') return resolve(schemas[ref.replace('#/components/schemas/', '')], depth + 1);
    return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, resolve(v, depth + 1)]));
  };
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = ((op['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>;
      const security = (op['security'] ?? []) as Record<string, unknown>[];
      ops.push({
        operationId: String(op['operationId']),
        method: method.toUpperCase(),
        template,
        params: ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path').map((p) => String(p['name'])),
        session: security.some((s) => 'sessionCookie' in s),
        bearer: security.some((s) => 'adminBearer' in s),
        cookieless: security.some((s) => 'uploadToken' in s),
        apiKey: security.some((s) => 'apiKey' in s),
        jsonBody: content['application/json'] ? (resolve(content['application/json']['schema']) as Json) : undefined,
        multipart: fileFieldOf(content['multipart/form-data']),
      });
    }
  }
  return ops;
}

const USER_ID_NAME = /^(user|clipper|streamer|follower|creator)Id$/;
const USER_ID_WORDS = /\b(user|clipper|streamer)(?:['’]s)?(?: user)? id\b/i;

/** A path parameter that names a user, and whom its description says it names (a streamer's id, a clipper's, anyone's). */
export interface UserIdParam {
  name: string;
  role: 'streamer' | 'clipper' | 'user';
}

/**
 * The path parameter of `op` that names a user (a user's id), if any: by its name (userId, clipperId,
 * streamerId, …) or, for a generic name such as `id`, by its description in the document ('The
 * streamer’s id', 'The clipper’s user id').
 */
export function userIdParamOf(doc: Json, op: Operation): UserIdParam | undefined {
  const paths = doc['paths'] as Record<string, Record<string, Json>>;
  const declared = (paths[op.template]?.[op.method.toLowerCase()]?.['parameters'] ?? []) as Json[];
  const names = (p: Json) => USER_ID_NAME.test(String(p['name'])) || USER_ID_WORDS.test(String(p['description'] ?? ''));
  const param = declared.find((p) => p['in'] === 'path' && names(p));
  if (!param) return undefined;
  const said = `${String(param['name'])} ${String(param['description'] ?? '')}`.toLowerCase();
  return { name: String(param['name']), role: said.includes('streamer') ? 'streamer' : said.includes('clipper') ? 'clipper' : 'user' };
}

// Plausible values by field name, so a sampled body passes validation as far as a generic value can.
// Handles and emails are numbered: each request names an account of its own, so a bad value in another
// field reaches the account's owner instead of stopping at 'already registered'.
const BY_NAME: Record<string, (n: number) => unknown> = {
  email: (n) => `bad.input.${n}@example.com`,
  password: () => 'a-good-password',
  newPassword: () => 'a-good-password',
  twitterHandle: (n) => `bi_${n.toString(36)}`,
  walletAddress: () => '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  url: (n) => `https://x.com/clipper/status/${1790000000000000000n + BigInt(n)}`,
  name: () => 'A clip',
  role: () => 'clipper',
};
let numbered = 0;

/** Values the platform gave the suite (a real submission id, …), used for the fields of that name. */
export const KNOWN: Record<string, unknown> = {};

/** A body that satisfies a JSON schema as far as a generic sample can: required fields, first choices. */
export function sample(schema: unknown, name = ''): unknown {
  if (name in KNOWN) return KNOWN[name];
  if (name in BY_NAME) return BY_NAME[name]!((numbered += 1));
  if (typeof schema !== 'object' || schema === null) return 'sample';
  const s = schema as Json;
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  if ('default' in s) return s['default'];
  const choices = (s['anyOf'] ?? s['oneOf']) as Json[] | undefined;
  if (choices) return sample(choices.find((c) => c['type'] !== 'null') ?? choices[0], name);
  switch (s['type']) {
    case 'object': {
      const props = (s['properties'] ?? {}) as Record<string, unknown>;
      // The required fields, and the optional ones with a plausible value (a post's name and link default to '').
      const keys = Object.keys(props).filter((k) => ((s['required'] ?? []) as string[]).includes(k) || k in BY_NAME);
      return Object.fromEntries(keys.map((k) => [k, sample(props[k], k)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return typeof s['minimum'] === 'number' ? s['minimum'] : 1;
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      const min = typeof s['minLength'] === 'number' ? s['minLength'] : 1;
      return 'sample'.padEnd(min, 's');
    }
  }
}

const HUGE = 'A'.repeat(100_000);

/** Values put in place of each body field, one at a time. */
export const FIELD_VALUES: [label: string, value: unknown][] = [
  ['number', 12345],
  ['negative', -1],
  ['huge number', 1e308],
  ['boolean', true],
  ['null', null],
  ['array', ['a', 'b']],
  ['object', { nested: 'x' }],
  ['NoSQL operator', { $gt: '' }],
  ['empty string', ''],
  ['blank string', '   '],
  ['100 000 characters', HUGE],
  ['NUL', 'a\u0000b'],
  ['control characters', '\u0001\u0007\u0008\u001b[2J\u007f\u0085'],
  ['line separators', 'a\u2028b\u2029c\r\nd'],
  ['emoji', '🎬🔥👩‍👩‍👧‍👦'],
  ['right-to-left', '\u202Eevil\u202C مرحبا שלום'],
  ['zero-width', '\u200b\u200d\ufeff'],
  ['lone surrogate', '\ud800'],
  ['SQL injection', "' OR '1'='1'; DROP TABLE users; --"],
  ['NoSQL in a string', '{"$ne":null}'],
  ['script', '<script>alert(1)</script>'],
  ['path traversal', '../../../../etc/passwd'],
  ['template', '${jndi:ldap://x}{{7*7}}'],
  ['__proto__ string', '__proto__'],
];

/** Path parameter values: each replaces one parameter, already in the form sent on the wire. */
export const PARAM_VALUES: [label: string, value: string][] = [
  ['10 000 characters', 'a'.repeat(10_000)],
  ['dot dot', '..'],
  ['traversal', '../../../etc/passwd'],
  ['encoded traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['encoded dots', '%2e%2e'],
  ['encoded slash', 'a%2Fb'],
  ['NUL', 'a%00b'],
  ['control characters', '%01%1B%7F'],
  ['malformed escape', '%ZZ%'],
  ['emoji', encodeURIComponent('🎬')],
  ['right-to-left', encodeURIComponent('\u202Eevil')],
  ['SQL injection', encodeURIComponent("1' OR '1'='1")],
  ['script', encodeURIComponent('<script>')],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
];

export const QUERY_VALUES: [label: string, value: string][] = [
  ['NUL in query', '?a=%00&%00=b'],
  ['prototype pollution in query', '?__proto__[polluted]=1&constructor[prototype][polluted]=1'],
  ['10 000-character query', `?q=${'q'.repeat(10_000)}`],
  ['malformed escape in query', '?a=%E0%A4%A'],
  ['repeated keys', '?a=1&a=2&a[]=3'],
];

export interface BadRequest {
  op: Operation;
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the answer must be beyond the rules every answer follows. */
  expect?: { status: number; text?: string };
}

export const CROSS_SITE_REFUSED = 'Cross-site request refused';
const FOREIGN = 'https://evil.example';
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Nested JSON a recursive parser or validator may not survive. */
const deepArray = Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
const deepObject = Buffer.from(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`);
const twentyMb = Buffer.concat([Buffer.from('{"x":"'), Buffer.alloc(20 * 1024 * 1024, 'x'), Buffer.from('"}')]);

type FormFile = { field: string; name: string; type: string; data: string };

function multipart(fields: Record<string, string>, files: FormFile[]): { type: string; body: Buffer } {
  const boundary = '----badinput0000000000000000';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  for (const file of files)
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.data}\r\n`,
    );
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`) };
}

/**
 * The corpus for one operation. `sameSite` is the Origin a page of the site sends; every write carries
 * it unless the request is about the Origin itself, so the bad input reaches validation.
 */
export function corpusFor(op: Operation, sameSite: string): BadRequest[] {
  const out: BadRequest[] = [];
  const base = Object.fromEntries(op.params.map((p) => [p, 'sample-id']));
  const pathWith = (values: Record<string, string>) => op.template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'sample-id');
  const path = pathWith(base);
  const origin: Record<string, string> = isWrite(op) ? { origin: sameSite } : {};
  const sampleBody = op.jsonBody ? sample(op.jsonBody) : undefined;
  const fresh = () => sample(op.jsonBody) as Json;
  const add = (label: string, r: Partial<BadRequest> & { body?: Buffer; contentType?: string }) => {
    const headers: Record<string, string> = { ...origin, ...(r.headers ?? {}) };
    if (r.contentType) headers['content-type'] = r.contentType;
    out.push({
      op,
      label,
      method: r.method ?? op.method,
      path: r.path ?? path,
      headers,
      ...(r.body ? { body: r.body } : {}),
      ...(r.expect ? { expect: r.expect } : {}),
    });
  };
  const withBody = (label: string, body: Buffer, contentType = 'application/json') => add(label, { body, contentType });

  add('plain', sampleBody === undefined ? {} : { body: json(sampleBody), contentType: 'application/json' });
  for (const [label, query] of QUERY_VALUES) add(label, { path: path + query });
  for (const param of op.params) {
    for (const [label, value] of PARAM_VALUES) add(`${param}: ${label}`, { path: pathWith({ ...base, [param]: value }) });
  }
  add('garbage session cookie', { headers: { cookie: `clipit.sid=${'x'.repeat(5000)}` } });
  add('session cookie with NUL', { headers: { cookie: 'clipit.sid=abc%00def' } });

  if (op.apiKey) {
    // Keys that are not keys: each refused with 401 and the same words, whatever is wrong with it.
    const refused = { status: 401, text: API_KEY_MESSAGES.keyRefused };
    const missing = { status: 401, text: API_KEY_MESSAGES.keyMissing };
    const unknown = 'clipit_' + 'A'.repeat(30);
    add('API key: well formed, checksum wrong', { headers: { authorization: `Bearer ${unknown}abcdef` }, expect: refused });
    add('API key: too short', { headers: { authorization: 'Bearer clipit_abc' }, expect: refused });
    add('API key: another prefix', { headers: { authorization: `Bearer ghp_${'a'.repeat(36)}` }, expect: refused });
    add('API key: 512 characters', { headers: { authorization: `Bearer clipit_${'a'.repeat(505)}` }, expect: refused });
    add('API key: 5,000 characters', { headers: { authorization: `Bearer clipit_${'a'.repeat(5000)}` }, expect: missing });
    add('API key: Basic scheme', { headers: { authorization: 'Basic Y2xpcGl0OmtleQ==' }, expect: missing });
    add('API key: empty bearer', { headers: { authorization: 'Bearer ' }, expect: missing });
  }

  if (isWrite(op)) {
    const refused = { status: 403, text: CROSS_SITE_REFUSED };
    // Each with a body of its own (its own post, its own account), so the answers do not depend on which runs first.
    const own = () => (op.jsonBody ? { body: json(fresh()), contentType: 'application/json' } : {});
    // Without Origin and Referer: fine for a client without cookies, refused (403) when the session cookie comes along.
    add('no Origin or Referer', { headers: { origin: '' }, ...own() });
    add('foreign Origin', { headers: { origin: FOREIGN }, ...own(), expect: refused });
    add('opaque Origin "null"', { headers: { origin: 'null' }, ...own(), expect: refused });
    add('foreign Referer, no Origin', { headers: { origin: '', referer: `${FOREIGN}/page` }, ...own(), expect: refused });
    add('20 MB body', { body: twentyMb, contentType: 'application/json' });
    for (const type of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'application/octet-stream', 'image/png']) {
      add(`content type ${type}`, { body: Buffer.from(sampleBody === undefined ? 'x' : JSON.stringify(sampleBody)), contentType: type });
    }
  }

  if (op.jsonBody) {
    const valid = sampleBody as Json;
    withBody('JSON as text/plain', json(valid), 'text/plain');
    withBody('JSON with charset utf-16', json(valid), 'application/json; charset=utf-16');
    withBody('JSON with a BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json(valid)]));
    withBody('multipart without boundary', json(valid), 'multipart/form-data');
    add('no body', { contentType: 'application/json' });
    add('no content type', { body: json(valid) });
    for (const [label, text] of [
      ['empty body', ''],
      ['truncated JSON', '{"a":'],
      ['unclosed brace', '{'],
      ['single quotes', "{'a':1}"],
      ['trailing comma', '{"a":1,}'],
      ['bare word', 'nul'],
      ['JSON null', 'null'],
      ['JSON array', '[]'],
      ['JSON string', '"s"'],
      ['JSON number', '1'],
      ['NUL byte in JSON text', '{"a":"\u0000"}'],
      ['invalid UTF-8', '\u00ff\u00fe'],
    ] as const) {
      withBody(label, label === 'invalid UTF-8' ? Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) : Buffer.from(text));
    }
    withBody('100 000-deep array', deepArray);
    withBody('20 000-deep object', deepObject);
    withBody('__proto__ key', Buffer.from(`{"__proto__":{"polluted":true},${JSON.stringify(valid).slice(1)}`.replace(/,}$/, '}')));
    withBody('constructor.prototype key', json({ ...valid, constructor: { prototype: { polluted: true } } }));
    withBody('unknown field', json({ ...valid, unknownField: 'x' }));
    withBody('privilege fields', json({ ...valid, role: 'admin', isAdmin: true, id: '00000000-0000-0000-0000-000000000000' }));
    withBody('10 000 unknown fields', json({ ...valid, ...Object.fromEntries(Array.from({ length: 10_000 }, (_v, i) => [`f${i}`, i])) }));
    const props = (op.jsonBody['properties'] ?? {}) as Record<string, unknown>;
    for (const field of Object.keys(props)) {
      const { [field]: _dropped, ...without } = { ...valid, [field]: undefined };
      withBody(`${field}: missing`, json(without));
      for (const [label, value] of FIELD_VALUES) withBody(`${field}: ${label}`, json({ ...fresh(), [field]: value }));
    }
  }

  if (op.multipart) {
    const fields = Object.fromEntries(Object.entries((sampleBody ?? {}) as Json).map(([k, v]) => [k, String(v)]));
    const claimed = op.multipart.mediaType.startsWith('video/') ? 'video/mp4' : 'image/png';
    const html = { field: op.multipart.field, name: 'x.png', type: claimed, data: '<html><script>alert(1)</script></html>' };
    const form = (label: string, f: Record<string, string>, ...files: FormFile[]) => {
      const m = multipart(f, files);
      add(label, { body: m.body, contentType: m.type });
    };
    form('multipart form', fields);
    form('multipart with NUL in a field', { ...fields, [Object.keys(fields)[0] ?? 'a']: 'a\u0000b' });
    form(`multipart with an HTML file as ${claimed}`, fields, html);
    form('multipart with a traversal file name', fields, { ...html, name: '../../../etc/passwd' });
    form('multipart with the file in another field', fields, { ...html, field: 'other' });
    form('multipart with two files', fields, html, { ...html, name: 'y.png' });
  }
  return out;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** One raw request (no URL normalising, exact bytes); rejects when no answer comes within `timeoutMs`. */
export function send(
  base: URL,
  agent: http.Agent,
  req: { method: string; path: string; headers: Record<string, string>; body?: Buffer },
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([, v]) => v !== ''));
    if (req.body) headers['content-length'] = String(req.body.length);
    let answered = false;
    const r = http.request({ host: base.hostname, port: base.port, method: req.method, path: req.path, headers, agent }, (res) => {
      answered = true;
      const contentType = String(res.headers['content-type'] ?? '');
      if (res.statusCode === 200 && contentType.startsWith('text/event-stream')) {
        // An event stream (GET /api/live/stream) answers by opening and never ends: its head is the answer.
        clearTimeout(timer);
        res.destroy();
        r.destroy();
        resolve({ status: 200, contentType, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', (err) => reject(err));
    });
    const timer = setTimeout(() => {
      r.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    r.on('error', (err) => {
      // A server may close the connection once it has answered a body it will not read (413): the answer counts.
      if (!answered) {
        clearTimeout(timer);
        reject(err);
      }
    });
    r.end(req.body);
  });
}

/** Runs `work` over `items` with at most `limit` in flight, results in the items' order. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
