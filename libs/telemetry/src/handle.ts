// Where the running SDK leaves its way out. The kit reaches it through the package's index, which must stay
// light (no SDK import): the SDK sets this global when the preload starts it, and only then.

export interface TelemetryHandle {
  /** Exports what is queued, then stops the span processor and the exporter. */
  shutdown(): Promise<void>;
}

const KEY = Symbol.for('clipit.telemetry');

export function setTelemetryHandle(handle: TelemetryHandle): void {
  (globalThis as { [KEY]?: TelemetryHandle })[KEY] = handle;
}

export function telemetryHandle(): TelemetryHandle | undefined {
  return (globalThis as { [KEY]?: TelemetryHandle })[KEY];
}
