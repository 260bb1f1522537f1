// The hosts layer's error codes (docs/errors.md): a host raises only what loading its platform's
// package can (MissingPackageError); a failed question is logged and answered, never thrown.
export const HOSTS_ERROR_CODES = ["missing-package"] as const;
export type HostsErrorCode = (typeof HOSTS_ERROR_CODES)[number];
