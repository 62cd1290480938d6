/** Starts the V2 emulator in-process on 127.0.0.1 with test-friendly defaults. */
import { DEFAULT_FAULTS, type EmulatorOptions } from "../../src/serve/options.js";
import { type Emulator, startEmulator } from "../../src/serve/server.js";

export const TEST_TOKEN = "cd_test_token_5f4e3d2c1b";

export function emulatorOptions(overrides: Partial<EmulatorOptions> = {}): EmulatorOptions {
  return {
    token: TEST_TOKEN,
    deployments: [],
    stepMs: 20,
    legacy: false,
    faults: { ...DEFAULT_FAULTS, ...overrides.faults },
    maxBodyBytes: 64 * 1024,
    webhookAttempts: 3,
    ...overrides,
    ...(overrides.faults ? { faults: { ...DEFAULT_FAULTS, ...overrides.faults } } : {}),
  };
}

export function startTestEmulator(overrides: Partial<EmulatorOptions> = {}): Promise<Emulator> {
  return startEmulator(emulatorOptions(overrides), { host: "127.0.0.1", port: 0 });
}
