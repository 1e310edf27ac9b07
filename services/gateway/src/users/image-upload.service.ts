import type { Readable } from 'node:stream';
import { PROFILE_IMAGE_MESSAGES, type ProfileImageKind } from '@clipit/field-rules';
import { LOGGER } from '@clipit/service-kit';
import { STORAGE, type StorageDriver } from '@clipit/storage';
import { BadRequestException, Inject, Injectable, PayloadTooLargeException } from '@nestjs/common';
import type { Logger } from 'pino';
import { SESSION_CACHE, type SessionCache } from '../auth/session-cache.js';
import { IDENTITY_CLIENT, type IdentityClient } from '../clients.js';
import { ByteLimit } from '../submissions/video-upload.js';
import { gatewayImageUploadUrl, imageContentTypeProblem, ImageSniff } from './image-upload.js';
import { toCurrentUser, type CurrentUser } from '../auth/current-user.js';
import type { ImageUploadUrl, ImageUploadUrlBody } from './users.schemas.js';

/** A PUT to the gateway's own image upload URL, as the controller hands it over. */
export interface IncomingImage {
  body: unknown;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/**
 * Profile pictures and banners through the gateway (spec 02 §2.6). Identity owns the uploads and every
 * rule; what is the gateway's is the upload URL's shape and, on filesystem storage, streaming the
 * bytes: counting them as they arrive, cutting the request off at the kind's limit and refusing bytes
 * that are no image, leaving nothing stored and the upload refused.
 */
@Injectable()
export class ImageUploadService {
  constructor(
    @Inject(IDENTITY_CLIENT) private readonly identity: IdentityClient,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    @Inject(SESSION_CACHE) private readonly sessions: SessionCache,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  /** A presigned PUT on S3; on filesystem storage the gateway's own URL carrying the one-time token. */
  async uploadUrl(userId: string, kind: ProfileImageKind, body: ImageUploadUrlBody): Promise<ImageUploadUrl> {
    const upload = await this.identity.createImageUpload({ userId, kind, contentType: body.contentType, size: body.size });
    return {
      uploadURL: upload.presignedUrl || gatewayImageUploadUrl(upload.uploadId, upload.uploadToken),
      uploadId: upload.uploadId,
      imageUrl: upload.imageUrl,
      maxBytes: Number(upload.maxBytes),
    };
  }

  /** The gateway's upload URL (filesystem storage): the bytes go to storage as they arrive, checked on the way. */
  async put(uploadId: string, token: string | undefined, incoming: IncomingImage): Promise<{ uploadId: string; size: number }> {
    const authorized = await this.identity.authorizeImageUpload({ uploadId, uploadToken: typeof token === 'string' ? token : '' });
    const kind = authorized.kind as ProfileImageKind;
    const maxBytes = Number(authorized.maxBytes);
    const body = incoming.body as Readable | undefined;
    const typeProblem = imageContentTypeProblem(kind, incoming.contentType);
    if (!body || typeof (body as Partial<Readable>).pipe !== 'function' || typeProblem) {
      throw new BadRequestException(typeProblem ?? PROFILE_IMAGE_MESSAGES.notImage(kind));
    }
    const tooLarge = PROFILE_IMAGE_MESSAGES.tooLarge(kind);
    const declared = Number(incoming.contentLength ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      await this.abort(uploadId, tooLarge);
      throw new PayloadTooLargeException(tooLarge);
    }
    const limit = new ByteLimit(maxBytes, tooLarge);
    const sniff = new ImageSniff(kind);
    const contentType = incoming.contentType!.split(';')[0]!.trim().toLowerCase();
    // A failure of either check fails the stream storage reads, so the driver keeps nothing. The bytes
    // start flowing before the driver is reading (it makes its folder first): the error is kept on the
    // destroyed stream, where the driver's pipeline finds it, rather than thrown as an unhandled event.
    limit.once('error', (err) => sniff.destroy(err));
    sniff.on('error', () => undefined);
    try {
      const stored = await this.storage.put(authorized.storageKey, body.pipe(limit).pipe(sniff), contentType);
      return { uploadId, size: stored.size };
    } catch (err) {
      body.unpipe(limit);
      body.resume();
      const refusal =
        limit.bytes > maxBytes ? new PayloadTooLargeException(tooLarge) : err instanceof BadRequestException ? err : undefined;
      if (!refusal) throw err;
      await this.abort(uploadId, refusal.message);
      throw refusal;
    }
  }

  /** Sets a finished upload as the user's picture or banner; identity checks the stored bytes and whose it is. */
  async setImage(userId: string, kind: ProfileImageKind, imageUrl: string): Promise<CurrentUser> {
    const user = await this.identity.setProfileImage({ userId, kind, imageUrl });
    // The next /api/user/me on this replica reads the new image; other replicas forget it on `user.updated`.
    this.sessions.invalidateUser(userId);
    return toCurrentUser(user);
  }

  async setDisplayName(userId: string, displayName: string): Promise<CurrentUser> {
    const user = await this.identity.updateProfile({ userId, displayName });
    this.sessions.invalidateUser(userId);
    return toCurrentUser(user);
  }

  private async abort(uploadId: string, reason: string): Promise<void> {
    await this.identity
      .abortImageUpload({ uploadId, reason })
      .catch((err: unknown) => this.log.warn({ err, uploadId }, 'could not abort an image upload'));
  }
}
