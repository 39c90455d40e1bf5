export * from './rich-text/index.ts';
