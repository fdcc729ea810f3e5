/** A transaction may wait this long between being made and being mined (the reference's 24 h). */
export const TX_EXPIRY_MS = 86_400_000;

/** The status table's error column keeps this much of a failure text (the reference's 255). */
export const STATUS_ERROR_LENGTH = 255;
