import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { authRoutes } from '../auth/auth.routes.js';
import { mediaRoutes } from '../media/media.routes.js';
import { usersRoutes } from '../users/users.routes.js';
import { buildOpenApiDocument, openApiPath } from './openapi.js';
import { offlineOpenApiDocument } from '../openapi-document.js';

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
    expect(offlineOpenApiDocument() as any).toMatchObject({
      paths: {
        '/api/submissions/upload-video': {
          post: {
            requestBody: { content: { 'multipart/form-data': { schema: { properties: { video: { contentMediaType: 'video/*' } } } } } },
          },
        },
      },
    });
  });

  it('documents success and plain-text error answers', () => {
    const responses = doc.paths['/api/auth/signup'].post.responses;
    expect(responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SignupResponse' });
    expect(doc.components.schemas.SignupResponse.properties.user).toEqual({ $ref: '#/components/schemas/CurrentUser' });
    expect(doc.components.schemas.CurrentUser.properties.twitterUsername).toBeDefined();
    expect(responses['400'].content['text/plain']).toBeDefined();
    expect(responses['429'].description).toMatch(/Too many attempts/);
    expect(doc.paths['/api/user/me'].get.security).toEqual([{ sessionCookie: [] }]);
    expect(doc.paths['/api/auth/signup'].post.security).toEqual([]);
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'clipit.sid' });
    expect(doc.components.securitySchemes.adminBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('adds the refusals a declaration implies (edge, guard, body) to the ones a route lists, each with a text/plain message', () => {
    const me = doc.paths['/api/user/me'].get.responses;
    expect(Object.keys(me)).toEqual(['200', '400', '401', '500', '503']);
    expect(me['400'].description).toMatch(/NUL character/);
    const signup = doc.paths['/api/auth/signup'].post.responses;
    expect(Object.keys(signup)).toEqual(['201', '400', '403', '409', '413', '415', '429', '500', '503']);
    expect(signup['400'].description).toMatch(/Request body is not valid JSON/);
    expect(signup['403'].description).toMatch(/Cross-site request refused/);
    for (const answer of [...Object.values(me), ...Object.values(signup)] as any[]) {
      if (answer.content?.['text/plain'])
        expect(answer.content['text/plain'].schema).toEqual({ $ref: '#/components/schemas/ErrorMessage' });
    }
    expect(doc.components.schemas.ErrorMessage).toMatchObject({ type: 'string', minLength: 1 });
    const bearer = { method: 'DELETE' as const, path: '/admin/x/:id', tag: 't', summary: 's', bearer: true };
    const op = (buildOpenApiDocument([{ def: bearer, operationId: 'x' }], { version: '1' }) as any).paths['/admin/x/{id}'].delete;
    expect(op.security).toEqual([{ adminBearer: [] }]);
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '414', '500']);
  });

  it("names the API's shapes as components, one per name, referenced wherever they are answered", () => {
    expect(Object.keys(doc.components.schemas)).toEqual(['CurrentUser', 'ErrorMessage', 'SignupResponse']);
    expect(doc.paths['/api/user/me'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CurrentUser',
    });
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
  });

  it('keeps a multipart form whole when its JSON body is a named schema', () => {
    const fields = z.object({ caption: z.string() }).meta({ id: 'UploadFields' });
    const upload = {
      method: 'POST' as const,
      path: '/up',
      tag: 't',
      summary: 's',
      body: fields,
      multipartFile: { field: 'file', description: 'a picture', mediaType: 'image/*' },
    };
    const content = (buildOpenApiDocument([{ def: upload, operationId: 'up' }], { version: '1' }) as any).paths['/up'].post.requestBody
      .content;
    expect(content['application/json'].schema).toEqual({ $ref: '#/components/schemas/UploadFields' });
    expect(Object.keys(content['multipart/form-data'].schema.properties)).toEqual(['caption', 'file']);
  });

  it('refuses one name for two different shapes', () => {
    const a = z.object({ a: z.string() }).meta({ id: 'Clash' });
    const b = z.object({ b: z.string() }).meta({ id: 'Clash' });
    const route = (path: string, response: z.ZodType) => ({
      def: { method: 'GET' as const, path, tag: 't', summary: 's', response },
      operationId: path,
    });
    expect(() => buildOpenApiDocument([route('/a', a), route('/b', b)], { version: '1' })).toThrow('Two different schemas are named Clash');
  });
});

describe('the document built without starting the gateway', () => {
  const doc = offlineOpenApiDocument() as any;

  it('documents every declared route, from the module tree alone', () => {
    expect(doc.paths['/api/submissions'].post.operationId).toBe('SubmissionsController.create');
    expect(doc.paths['/api/logout'].get.operationId).toBe('AuthController.logOutLink');
    expect(doc.paths['/api/docs'].get.summary).toBe('This OpenAPI 3.1 document, generated from the route schemas');
    const operations = Object.values(doc.paths).flatMap((methods: any) => Object.values(methods)) as { operationId: string }[];
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });
});
