export const MAX_PARALLEL_HASHES: number;
