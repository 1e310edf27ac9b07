// `node dist/print-openapi.js [v1]`: writes the gateway's OpenAPI document (the site's, or with `v1` the
// versioned read API's) to stdout without starting it (scripts/web-api-types.mjs commits both and
// generates the web apps' API types from the site's).
import 'reflect-metadata';
import { offlineOpenApiDocument } from './openapi-document.js';

process.stdout.write(`${JSON.stringify(offlineOpenApiDocument(process.argv[2] === 'v1' ? 'v1' : 'site'), null, 2)}\n`);
