// The groups pages' addresses: the profile and the id filter live in the URL, so a reload or a link shows the same list.

export function groupsHref(profile: string, prefix = ""): string {
  const query = new URLSearchParams({ profile, ...(prefix ? { prefix } : {}) });
  return `/console/groups?${query}`;
}

export function groupHref(profile: string, id: string): string {
  return `/console/groups/${encodeURIComponent(profile)}/${encodeURIComponent(id)}`;
}
