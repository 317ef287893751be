export function uiBuildIsCurrent(): boolean;
export function buildUi(): Promise<void>;
export function ensureUiBuilt(): Promise<void>;
