export { indexerSettings } from './settings.ts';
export { indexWatermarkLag, registerIndexWatermarkLag } from './watermark-lag.ts';
