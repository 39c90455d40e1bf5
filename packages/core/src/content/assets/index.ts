export { isValidBlobKey } from '../../ports/blob-store.ts';
