// $CLIP amounts: numeric(20, 6) in SQL, decimal strings on the wire and in events (never floats there).

/** A decimal string without trailing zeros ("10.500000" → "10.5", "3.000000" → "3"). */
export function normalizeAmount(value: string | number): string {
  const fixed = typeof value === 'number' ? value.toFixed(6) : value;
  if (!/^-?\d+(\.\d+)?$/.test(fixed)) throw new Error(`not an amount: ${fixed}`);
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** An amount in the token's smallest units (6 decimals), exactly, as a bigint. */
export function toBaseUnits(amount: string): bigint {
  const [whole, fraction = ''] = normalizeAmount(amount).split('.');
  if (fraction.length > 6) throw new Error(`more than 6 decimals: ${amount}`);
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}
