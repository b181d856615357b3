const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/**
 * A byte count as people read it, in powers of 1024 with three significant digits.
 *
 * @example
 * formatBytes(26575) //=> '26.0 KiB'
 */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ${UNITS[unit]}`;
}
