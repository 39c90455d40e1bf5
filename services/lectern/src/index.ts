export { startEmbedded, type EmbeddedServer, type StartConfig } from './embedded.ts';
export { runCli, buildProgram } from './program.ts';
