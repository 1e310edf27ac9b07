// `node dist/print-openapi.js`: writes the gateway's OpenAPI document to stdout without starting it
// (scripts/web-api-types.mjs commits it and generates the web apps' API types from it).
import 'reflect-metadata';
import { offlineOpenApiDocument } from './openapi-document.js';

process.stdout.write(`${JSON.stringify(offlineOpenApiDocument(), null, 2)}\n`);
