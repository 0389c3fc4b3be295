export function electronBinary(): { path: string; reason?: undefined } | { path?: undefined; reason: string };
export function missingTools(): string[];
