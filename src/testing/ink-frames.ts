/** Polls an ink render's frame until `check` holds (no fixed wait: a loaded machine renders late). */
export async function untilFrame(ink: { lastFrame(): string | undefined }, check: (frame: string) => boolean): Promise<string> {
  for (let i = 0; i < 3000; i++) {
    const frame = ink.lastFrame() ?? '';
    if (check(frame)) return frame;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never shown; last frame:\n${ink.lastFrame()}`);
}
