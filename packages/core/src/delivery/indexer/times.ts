/** ISO-8601 UTC with seven fractional digits, as the Delivery API writes times (.NET ticks). */
export function deliveryTime(at: Date | string): string {
  const iso = (typeof at === 'string' ? new Date(at) : at).toISOString();
  return iso.replace(/Z$/, '0000Z');
}
