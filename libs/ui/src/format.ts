// Display formatting from the spec: no date or number library, the same output on every machine
// for the same local time.

/**
 * Abbreviates a count for display (spec: "1,000 and up as K, 1,000,000 and up as M, one decimal").
 *
 * - below 1,000: the whole number, rounded (averages can be fractional): 999 → '999', 12.6 → '13'
 * - from 1,000: thousands with exactly one decimal, rounded half up: 1000 → '1.0K', 1500 → '1.5K',
 *   999_949 → '999.9K'
 * - from 1,000,000: millions with exactly one decimal: 2_000_000 → '2.0M', 1_250_000 → '1.3M'; there is
 *   no larger unit, so 2.5 billion is '2500.0M'
 * - a value that would round up to the next unit takes it: 999.6 → '1.0K', 999_950 → '1.0M'
 *   (never '1000' or '1000.0K')
 * - negative values keep their sign; NaN and ±Infinity give '0'.
 */
export function abbreviateNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  if (abs >= 1_000_000) return `${sign}${(abs / 1_000_000).toFixed(1)}M`;
  if (abs >= 1_000) {
    const thousands = (abs / 1_000).toFixed(1);
    return thousands === '1000.0' ? `${sign}1.0M` : `${sign}${thousands}K`;
  }
  const whole = Math.round(abs);
  if (whole === 0) return '0';
  return whole === 1_000 ? `${sign}1.0K` : `${sign}${whole}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * Formats a date as the spec's 'MMM d, yyyy • h:mm a' in the browser's local time zone, English
 * month names and AM/PM: 'Jan 5, 2025 • 3:07 PM', 'Dec 31, 2024 • 12:00 AM'.
 * Accepts a Date, an ISO string or epoch milliseconds; an invalid date gives '' (nothing to show)
 * rather than 'Invalid Date' or an exception in the middle of a list.
 */
export function formatDate(input: Date | string | number): string {
  const date = input instanceof Date ? input : new Date(input);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  const period = hours < 12 ? 'AM' : 'PM';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()} • ${hour12}:${minutes} ${period}`;
}
