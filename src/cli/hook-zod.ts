/**
 * X1: `askdock hook` reads a few frames and ends, so zod reads them with its plain parsers: its JIT compiles a parser
 * (`new Function`) for each object schema the first time it parses, work a process this short never earns back.
 * Schemas take the setting when they are built, so hook.ts imports this before the client and the protocol load.
 */
import * as z from 'zod';

z.config({ jitless: true });
