/** Injection tokens of what the media worker's start-up opens outside Nest. */
export const MEDIA_TOOLS = Symbol('MEDIA_TOOLS');
/** The folder under which each running job gets its scratch folder. */
export const WORK_ROOT = Symbol('WORK_ROOT');
/** The media queue's producer handle, for the fingerprint jobs the worker queues itself. */
export const MEDIA_QUEUE_PRODUCER = Symbol('MEDIA_QUEUE_PRODUCER');
