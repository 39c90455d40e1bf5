export * from './rich-text/index.ts';
export * from './assets/index.ts';
