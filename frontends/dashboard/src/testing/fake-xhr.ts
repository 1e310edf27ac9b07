// Component tests of the image uploads: XMLHttpRequest as the storage PUT uses it, played by the test, which
// says when bytes go and how the storage answers. Install it over globalThis.XMLHttpRequest in a
// beforeEach (and put the real one back after); `around` lets a component spec wrap each event in act().
export class FakeXhr {
  static instances: FakeXhr[] = [];
  static last = (): FakeXhr => FakeXhr.instances[FakeXhr.instances.length - 1]!;
  /** How each event reaches the page (a component spec passes React's act). */
  static around: (event: () => void) => void = (event) => event();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: { onprogress: ((event: Partial<ProgressEvent>) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    FakeXhr.around(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  respond(status: number, text = '') {
    this.status = status;
    this.responseText = text;
    FakeXhr.around(() => this.onload?.());
  }
  fail() {
    FakeXhr.around(() => this.onerror?.());
  }
}
