// The SSRF guard lives in http-kit (the Management API's MCP asset upload from a URL uses it too).
export { AddressRefusedError, guardedLookup, isAddressAllowed } from '@lectern/http-kit';
