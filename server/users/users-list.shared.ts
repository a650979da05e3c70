// What the console's users list and the server share about its order: the columns it can be sorted
// by, and the default. The page keeps them in its URL (?sort=email&dir=desc).

/** The orders of the users list: each one a key and the id after it, so that equal keys page stably. */
export const USER_SORTS = ["sub", "login", "name", "email", "created", "status"] as const;
export type TUserSort = (typeof USER_SORTS)[number];

export const SORT_DIRS = ["asc", "desc"] as const;
export type TSortDir = (typeof SORT_DIRS)[number];

export const DEFAULT_USER_SORT: TUserSort = "sub";
export const DEFAULT_SORT_DIR: TSortDir = "asc";
