export function importCodex(files: { path: string; text: string }[]): import("../types.ts").PolicyImport { void files; return { policy: { rules: [] }, refused: [], warnings: ["not yet"] }; }
