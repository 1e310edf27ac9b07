import { randomUUID } from 'node:crypto';
import type { identityV1 } from '@clipit/contracts';
import { PROFILE_IMAGE_LIMITS, PROFILE_IMAGE_MESSAGES, type ProfileImageKind } from '@clipit/field-rules';
import { CONFIG, invalid, isUuid, LOGGER, notFound, TransactionRunner } from '@clipit/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config.js';
import {
  acceptsBytes,
  imageUploadKeys,
  imageUploadRef,
  ownImageKey,
  newUploadToken,
  parseImageUploadRequest,
  requireKind,
  requireUsable,
  SNIFF_BYTES,
  storedImageVerdict,
  uploadTokenMatches,
} from '../domain/image-upload.js';
import { messages } from '../domain/messages.js';
import type { ImageUploadEntity } from '../entities/image-upload.entity.js';
import { ImageUploadRepository } from '../repositories/image-upload.repository.js';
import { StorageRepository } from '../repositories/storage.repository.js';
import { UserRepository } from '../repositories/user.repository.js';
import { UserService, type PublicField } from './user.service.js';

const SWEEP_BATCH = 100;

const fieldOf = (kind: ProfileImageKind): Extract<PublicField, 'profileImageUrl' | 'bannerImageUrl'> =>
  kind === 'banner' ? 'bannerImageUrl' : 'profileImageUrl';

/**
 * Profile pictures and banners by upload (spec 02 §2.6): an upload URL, the gateway's check of its
 * token, the gateway giving up on one, and setting a finished upload as the image. The bytes go to a
 * private key first; only once they are checked (size, image type by their first bytes) are they
 * copied to the published key the image is served at, so nothing unchecked is ever public.
 */
@Injectable()
export class ImageUploadService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly uploads: ImageUploadRepository,
    private readonly users: UserRepository,
    private readonly userService: UserService,
    private readonly storage: StorageRepository,
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  private urlOf(key: string): string {
    return `${this.config.MEDIA_PUBLIC_BASE_URL.replace(/\/+$/, '')}/${key}`;
  }

  async create(req: identityV1.CreateImageUploadRequest): Promise<identityV1.ImageUpload> {
    const spec = parseImageUploadRequest(req);
    if (!isUuid(req.userId) || !(await this.users.getById(req.userId))) throw notFound(messages.userNotFound);
    const now = new Date();
    const ttlSeconds = this.config.IMAGE_UPLOAD_TTL_SECONDS;
    const token = newUploadToken();
    const id = randomUUID();
    const upload: ImageUploadEntity = {
      id,
      userId: req.userId,
      kind: spec.kind,
      ...imageUploadKeys({ id, userId: req.userId, kind: spec.kind, contentType: spec.contentType }),
      tokenHash: token.hash,
      contentType: spec.contentType,
      declaredSize: spec.size,
      status: 'pending',
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      createdAt: now,
      usedAt: null,
    };
    await this.uploads.insert(upload);
    const presignedUrl = (await this.storage.presignedPutUrl(upload.uploadKey, ttlSeconds)) ?? '';
    return {
      uploadId: id,
      imageUrl: this.urlOf(upload.imageKey),
      presignedUrl,
      // The secret goes only to a gateway upload URL: a presigned URL carries its own signature.
      uploadToken: presignedUrl === '' ? token.token : '',
      expiresAt: upload.expiresAt.toISOString(),
      maxBytes: spec.maxBytes,
    };
  }

  async authorize(req: identityV1.AuthorizeImageUploadRequest): Promise<identityV1.AuthorizedImageUpload> {
    const upload = isUuid(req.uploadId) ? await this.uploads.findById(req.uploadId) : null;
    if (!acceptsBytes(upload, new Date()) || !uploadTokenMatches(upload.tokenHash, req.uploadToken)) {
      throw notFound(PROFILE_IMAGE_MESSAGES.uploadNotFound);
    }
    return { uploadId: upload.id, kind: upload.kind, storageKey: upload.uploadKey, maxBytes: this.maxBytes(upload.kind) };
  }

  async abort(req: identityV1.AbortImageUploadRequest): Promise<identityV1.AbortImageUploadResponse> {
    if (!isUuid(req.uploadId)) throw notFound(PROFILE_IMAGE_MESSAGES.uploadNotFound);
    const upload = await this.refuse(req.uploadId, req.reason || 'aborted by the gateway');
    if (!upload) throw notFound(PROFILE_IMAGE_MESSAGES.uploadNotFound);
    return {};
  }

  /**
   * Sets one of the caller's own finished uploads as their picture or banner. The stored bytes are
   * judged, not what was declared: too large or not an image refuses the upload and removes its bytes.
   * The user's row, the upload's use and `user.updated` commit together; the raw upload and the image
   * it replaced (when it was ours) are removed after, best effort.
   */
  async setImage(req: identityV1.SetProfileImageRequest): Promise<identityV1.User> {
    const kind = requireKind(req.kind);
    if (!isUuid(req.userId)) throw notFound(messages.userNotFound);
    const ref = imageUploadRef(req.imageUrl, this.config.MEDIA_PUBLIC_BASE_URL);
    if (!req.imageUrl?.trim()) throw invalid(PROFILE_IMAGE_MESSAGES.imageUrlRequired);
    if (!ref) throw invalid(PROFILE_IMAGE_MESSAGES.notYourUpload);
    let found: ImageUploadEntity | null;
    if ('imageKey' in ref) {
      found = await this.uploads.findByImageKey(ref.imageKey);
      // A published object that no upload made (a sign-up picture, a video): not something to pick.
      if (!found) throw invalid(PROFILE_IMAGE_MESSAGES.notYourUpload);
    } else {
      found = await this.uploads.findById(ref.uploadId);
    }
    const upload = requireUsable(found, req.userId, kind, new Date());

    const stored = await this.storage.stat(upload.uploadKey);
    const head = stored ? await this.storage.head(upload.uploadKey, stored.size, SNIFF_BYTES) : Buffer.alloc(0);
    const verdict = storedImageVerdict(kind, stored, head);
    if ('refusal' in verdict) {
      if (!verdict.keep) await this.refuse(upload.id, verdict.refusal.message);
      throw verdict.refusal;
    }
    // Published under the type the bytes are; a copy left by a failed commit is the sweeper's.
    await this.storage.copy(upload.uploadKey, upload.imageKey, verdict.image.mime);

    const field = fieldOf(kind);
    let previous: string | null = null;
    const user = await this.transactions.run(async (tx) => {
      requireUsable(await this.uploads.lock(tx, upload.id), req.userId, kind, new Date());
      const updated = await this.userService.patchUser(tx, req.userId, { [field]: this.urlOf(upload.imageKey) }, (row) => {
        previous = row[field];
      });
      await this.uploads.update(tx, upload.id, { status: 'used', usedAt: new Date() });
      return updated;
    });

    await this.storage.discard(upload.uploadKey, 'a used image upload');
    const old = ownImageKey(previous, this.config.MEDIA_PUBLIC_BASE_URL, req.userId);
    const otherField = fieldOf(kind === 'banner' ? 'profile' : 'banner');
    // The replaced image goes unless it is the new one or the other image still shows it.
    if (old && old !== upload.imageKey && user[otherField] !== previous) await this.storage.discard(old, `a replaced ${kind} image`);
    return user;
  }

  /** Uploads that expired without becoming an image: their rows and any bytes they left. Answers how many. */
  async sweepExpired(now = new Date(), batch = SWEEP_BATCH): Promise<number> {
    const ids = await this.uploads.findExpiredUnusedIds(now, batch);
    const keys: string[] = [];
    for (const id of ids) {
      // Checked again under the lock: a use may have committed meanwhile.
      const swept = await this.transactions.run(async (tx) => {
        const upload = await this.uploads.lock(tx, id);
        if (!upload || upload.status === 'used' || upload.expiresAt.getTime() >= now.getTime()) return undefined;
        await this.uploads.delete(tx, id);
        return upload;
      });
      if (swept) keys.push(swept.uploadKey, swept.imageKey);
    }
    for (const key of keys) await this.storage.discard(key, 'an expired image upload');
    return ids.length === 0 ? 0 : keys.length / 2;
  }

  private maxBytes(kind: ProfileImageKind): number {
    return PROFILE_IMAGE_LIMITS[kind].maxBytes;
  }

  /** The upload can no longer be used and its bytes are removed; null when there is no such upload. */
  private async refuse(id: string, reason: string): Promise<ImageUploadEntity | null> {
    const upload = await this.transactions.run(async (tx) => {
      const locked = await this.uploads.lock(tx, id);
      if (locked?.status === 'pending') await this.uploads.update(tx, id, { status: 'refused' });
      return locked;
    });
    if (upload && upload.status !== 'used') {
      this.logger.info({ uploadId: id, reason }, 'image upload refused');
      await this.storage.discard(upload.uploadKey, 'a refused image upload');
    }
    return upload;
  }
}
