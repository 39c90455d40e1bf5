// The webhook worker (issue 13), built in steps. So far: the notification body bytes and their
// signature, checked against Kontent.ai's official test vectors.
export { notificationBody, signatureHeaderNames, signatureHeaders, signBody } from './signature.ts';
