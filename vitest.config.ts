import { defineConfig } from "vitest/config";

/** The pure stages run again under two more host zones: output must never depend on TZ. */
const zoneSensitive = [
  "test/time/**/*.test.ts",
  "test/schedule/**/*.test.ts",
  "test/render/**/*.test.ts",
  "test/goldenOutput.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/globalSetup.ts"],
    testTimeout: 60_000,
    // Vitest's default on a 2-core CI runner is one worker; most of our files wait on a child
    // process (the CLI, nginx, wrangler), so two keep both cores busy.
    maxWorkers: 2,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"] } },
      ...["Asia/Kolkata", "America/Los_Angeles"].map((zone) => ({
        extends: true as const,
        test: { name: `TZ=${zone}`, include: zoneSensitive, env: { TZ: zone } },
      })),
    ],
  },
});
