import { BinaryEntity } from './binary.entity';

export { BinaryEntity };

export const BINARIES_ENTITIES = [BinaryEntity];
