import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';

/** A country database record of @ip-location-db's geo-whois-asn-country (CC0). */
interface CountryRecord {
  readonly country_code?: string;
}

/** The location an IP address gives, or null when the database knows nothing of it. */
export type GeoLocate = (ip: string) => Promise<{ country: string } | null>;

const databaseFile = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/**
 * Geolocation from the visitor's IP (SPEC 4.5 rules 5–6) with an offline database: the
 * `@ip-location-db/geo-whois-asn-country-mmdb` package (IPv4 and IPv6 ranges to ISO country
 * codes, from the regional registries' whois data, CC0; no city or time zone), read by the
 * `maxmind` MMDB reader, loaded on the first lookup (about 8 MB in memory). The address is only
 * looked up, never kept.
 */
export function createGeoLocator(): GeoLocate {
  let reader: Promise<Reader<Response>> | null = null;
  return async (ip) => {
    if (!maxmind.validate(ip)) return null;
    reader ??= maxmind.open<Response>(createRequire(import.meta.url).resolve(databaseFile));
    const country = ((await reader).get(ip) as CountryRecord | null)?.country_code;
    return country === undefined || country === '' ? null : { country };
  };
}
