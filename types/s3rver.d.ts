// @20minutes/s3rver ships no types; only what the storage tests use.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    /** 0 = a free port chosen by the OS. */
    port?: number;
    silent?: boolean;
    /** Where buckets and objects are kept. */
    directory?: string;
    resetOnClose?: boolean;
    /** Accept requests whose signature does not match (keep false: the tests rely on the check). */
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
  }

  export default class S3rver {
    constructor(options?: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

// The accounts whose keys s3rver accepts: one built-in account with the key pair S3RVER/S3RVER.
declare module '@20minutes/s3rver/lib/models/account.js' {
  interface AWSAccount {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    revokeAccessKey(accessKeyId: string): void;
  }
  const AWSAccount: { DUMMY_ACCOUNT: AWSAccount };
  export default AWSAccount;
}
