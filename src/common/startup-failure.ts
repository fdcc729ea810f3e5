/** A start that cannot go on because of a setting; its message is the one line that names it. */
export class StartupFailure extends Error {}
