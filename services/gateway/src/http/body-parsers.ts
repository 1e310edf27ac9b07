import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNSUPPORTED_CONTENT_TYPE } from './messages.js';

/** The routes whose body is raw bytes: the gateway's video upload URL (PUT, video/*) and image upload URL (PUT, image/*). */
const RAW_VIDEO_UPLOAD = /^\/api\/submissions\/uploads\/[^/?]+(\?|$)/;
const RAW_IMAGE_UPLOAD = /^\/api\/user\/image-uploads\/[^/?]+(\?|$)/;

/**
 * Bodies are JSON, or multipart where a file is uploaded (that parser comes with @fastify/multipart).
 * Everything else (text/plain, urlencoded forms, …) is 415: a plain HTML form on another site then
 * cannot even be parsed, whatever the Origin check says. Over BODY_LIMIT_BYTES is 413.
 */
export function installBodyParsers(fastify: FastifyInstance, bodyLimit: number): void {
  // Fastify's own defaults are JSON and text/plain; the multipart plugin has added its parser by now.
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  // Throws on __proto__ / constructor.prototype keys instead of stripping them silently.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    // `Content-Type: application/json` with nothing after it (common for body-less POSTs) reads as no body.
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // The default parser is synchronous and reports through `done`.
    void parseJson(request, text, done);
  });
  // A video PUT to an upload URL is handed to its route as the request stream, unread (the route cuts
  // it off at the size limit while it writes it to storage). Anywhere else a video body is 415.
  fastify.addContentTypeParser(/^video\//i, rawUpload(RAW_VIDEO_UPLOAD));
  // Likewise an image PUT to a profile image upload URL.
  fastify.addContentTypeParser(/^image\//i, rawUpload(RAW_IMAGE_UPLOAD));
}

function rawUpload(route: RegExp) {
  return (request: FastifyRequest, payload: unknown, done: (err: Error | null, body?: unknown) => void): void => {
    if (request.method === 'PUT' && route.test(request.url)) {
      done(null, payload);
      return;
    }
    const err = Object.assign(new Error(UNSUPPORTED_CONTENT_TYPE), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' });
    done(err, undefined);
  };
}
