import { describe, expect, it } from '@jest/globals';
import { authRoutes } from '../auth/auth.routes.js';
import { mediaRoutes } from '../media/media.routes.js';
import { usersRoutes } from '../users/users.routes.js';
import { buildOpenApiDocument, openApiPath } from './openapi.js';

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument(
    [
      { def: authRoutes.signup, operationId: 'AuthController.signUp' },
      { def: usersRoutes.me, operationId: 'UsersController.me' },
      { def: mediaRoutes.object, operationId: 'MediaController.object' },
    ],
    { version: '1.0.0' },
  ) as any;

  it('is OpenAPI 3.1 with template paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(openApiPath('/media/*', { key: 'k' })).toBe('/media/{key}');
    expect(openApiPath('/api/clipper/:id')).toBe('/api/clipper/{id}');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/auth/signup', '/api/user/me', '/media/{key}']));
  });

  it('documents request bodies from the validation schemas, JSON and multipart', () => {
    const body = doc.paths['/api/auth/signup'].post.requestBody.content;
    const json = body['application/json'].schema;
    expect(json.required).toEqual(expect.arrayContaining(['email', 'twitterHandle', 'walletAddress', 'role', 'password']));
    expect(json.properties.role.enum).toEqual(['clipper', 'streamer']);
    expect(json.additionalProperties).toBe(false);
    expect(body['multipart/form-data'].schema.properties.profilePicture).toMatchObject({ type: 'string', contentMediaType: 'image/*' });
  });

  it('documents success and plain-text error answers', () => {
    const responses = doc.paths['/api/auth/signup'].post.responses;
    expect(responses['201'].content['application/json'].schema.properties.user.properties.twitterUsername).toBeDefined();
    expect(responses['400'].content['text/plain']).toBeDefined();
    expect(responses['429'].description).toMatch(/Too many attempts/);
    expect(doc.paths['/api/user/me'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.components.securitySchemes.sessionCookie).toEqual({ type: 'apiKey', in: 'cookie', name: 'clipit.sid' });
  });
});
