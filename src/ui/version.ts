/** package.json's version, put in by vite's `define` (vite.config.ts); 'dev' where nothing defines it. */
declare const __APP_VERSION__: string | undefined;

export const APP_NAME = 'dedup-workbench';
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';
