export function dropStaleTestDatabases(): Promise<number>;
