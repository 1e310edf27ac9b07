import type { EndpointDef } from '../http/endpoint.js';
import { NOT_FOUND, RANGE_NOT_SATISFIABLE } from '../http/messages.js';

export const mediaRoutes = {
  object: {
    method: 'GET',
    // Fastify's wildcard: everything after /media/ is the key (params['*']).
    path: '/media/*',
    tag: 'media',
    summary:
      'A published object (processed videos and posters, profile pictures, banners); single byte ranges, ETag/Last-Modified validators',
    params: { key: 'Storage key under videos/, profile-images/ or banner-images/, e.g. profile-images/3f2c….png' },
    successContentType: '*/*',
    successDescription:
      'The bytes, with Content-Type, Content-Length, ETag, Last-Modified, Accept-Ranges: bytes and a year-long immutable Cache-Control. ' +
      '206 with Content-Range for a single Range; 304 when If-None-Match / If-Modified-Since still match.',
    errors: [
      {
        status: 404,
        description: `'${NOT_FOUND}' (also for unpublished objects such as raw uploads, and for keys that are not valid storage keys)`,
      },
      { status: 416, description: `'${RANGE_NOT_SATISFIABLE}', with Content-Range: bytes */<size>` },
    ],
  },
} satisfies Record<string, EndpointDef>;
