export const PROTOCOL_VERSION = 1;
/** Product version reported in hello-ok.server.version. */
export const SERVER_VERSION = '0.1.0';
