import { PageDataError } from '../types';

/** Turns a {@link PageDataError} from the port into the text the page shows. */
export async function shown<T>(work: () => Promise<T> | T): Promise<T | { message: string }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PageDataError) return { message: error.message };
    throw error;
  }
}

export function isShown(value: unknown): value is { message: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'message' in value;
}
