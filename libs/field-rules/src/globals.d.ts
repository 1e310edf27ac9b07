// The WHATWG URL class, which every browser and Node provide. This library loads neither the DOM's
// nor Node's type definitions (so nothing only one of them has can slip in): it declares the part it
// uses. Not emitted; consumers see their own platform's URL.
declare class URL {
  constructor(url: string, base?: string);
  readonly protocol: string;
  readonly hostname: string;
  readonly username: string;
  readonly password: string;
  hash: string;
  toString(): string;
}
