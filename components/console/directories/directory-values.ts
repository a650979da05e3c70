import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

/*
 * The directory form's values: text as typed, and the conversions to the call's input and from the
 * settings as saved. A setting added to directories is added here three times (the value, its
 * conversion to the input, its conversion from the saved settings) and gets a field in one of the
 * form's sections.
 */

export type TDirectoryInput = inferRouterInputs<AppRouter>["console"]["directories"]["create"];
type TDirectorySettings = inferRouterOutputs<AppRouter>["console"]["directories"]["get"];

export type TRuleValues = { from: string; to: string; transform: "" | "email" | "phone" | "lowercase"; verified: boolean };

export type TDirectoryValues = {
  id: string;
  name: string;
  enabled: boolean;
  url: string;
  startTls: boolean;
  /** A CA pasted or read from a file: replaces the stored one. */
  caCert: string;
  /** The directory being edited has a CA stored (never sent to the browser). */
  storedCa: boolean;
  /** Remove the stored CA (the system's CAs are used). */
  removeCa: boolean;
  bindDn: string;
  /** Write-only: empty keeps the stored one. */
  bindPassword: string;
  baseDn: string;
  userFilter: string;
  loginAttribute: string;
  idAttribute: string;
  disabledFilter: string;
  attributes: TRuleValues[];
  mode: "on_demand" | "synchronised";
  /** Seconds, as typed. */
  syncIntervalS: string;
  missingPolicy: "lock" | "delete" | "keep";
  changeAttribute: "modifyTimestamp" | "uSNChanged";
  passwordChange: "off" | "self" | "self_and_reset";
  passwordProtocol: "rfc3062" | "active_directory";
  /** Whether the directory's groups are mapped; the fields below only then. */
  groupsOn: boolean;
  groupsBaseDn: string;
  groupsFilter: string;
  groupsName: string;
  groupsMember: string;
  groupsNesting: "none" | "expand" | "in_chain";
  groupsProfile: string;
  groupsIdPrefix: string;
  /** One name a line. */
  groupsOnly: string;
};

export const EMPTY_VALUES: TDirectoryValues = {
  id: "",
  name: "",
  enabled: true,
  url: "ldaps://",
  startTls: true,
  caCert: "",
  storedCa: false,
  removeCa: false,
  bindDn: "",
  bindPassword: "",
  baseDn: "",
  userFilter: "(objectClass=inetOrgPerson)",
  loginAttribute: "uid",
  idAttribute: "entryUUID",
  disabledFilter: "",
  attributes: [],
  mode: "on_demand",
  syncIntervalS: "900",
  missingPolicy: "lock",
  changeAttribute: "modifyTimestamp",
  passwordChange: "off",
  passwordProtocol: "rfc3062",
  groupsOn: false,
  groupsBaseDn: "",
  groupsFilter: "(objectClass=groupOfNames)",
  groupsName: "cn",
  groupsMember: "member",
  groupsNesting: "none",
  groupsProfile: "directory_groups",
  groupsIdPrefix: "",
  groupsOnly: "",
};

export const EMPTY_RULE: TRuleValues = { from: "", to: "", transform: "", verified: false };

const optional = (text: string) => (text.trim() ? text.trim() : undefined);

/** A number as typed; what is not one goes as it is, for the server to refuse beside its field. */
const seconds = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : (text as unknown as number));

/** The CA as the call has it: text replaces, null removes, left out keeps. */
function caOf(v: TDirectoryValues): string | null | undefined {
  if (v.caCert.trim()) return v.caCert;
  return v.storedCa && v.removeCa ? null : undefined;
}

/** The groups block as the call has it: left out when groups are not mapped. */
function groupsOf(v: TDirectoryValues): TDirectoryInput["groups"] {
  if (!v.groupsOn) return undefined;
  const only = v.groupsOnly.split("\n").map((n) => n.trim()).filter(Boolean);
  return {
    baseDn: v.groupsBaseDn.trim(),
    filter: v.groupsFilter.trim(),
    nameAttribute: v.groupsName.trim(),
    memberAttribute: v.groupsMember.trim(),
    nesting: v.groupsNesting,
    profile: v.groupsProfile.trim(),
    idPrefix: optional(v.groupsIdPrefix),
    only: only.length ? only : undefined,
  };
}

export function toInput(v: TDirectoryValues): TDirectoryInput {
  return {
    id: v.id.trim(),
    name: v.name.trim(),
    enabled: v.enabled,
    url: v.url.trim(),
    startTls: v.startTls,
    caCert: caOf(v),
    bindDn: v.bindDn.trim(),
    bindPassword: v.bindPassword,
    baseDn: v.baseDn.trim(),
    userFilter: v.userFilter.trim(),
    loginAttribute: v.loginAttribute.trim(),
    idAttribute: v.idAttribute.trim(),
    disabledFilter: optional(v.disabledFilter),
    attributes: v.attributes
      .filter((r) => r.from.trim() || r.to.trim())
      .map((r) => ({ from: r.from.trim(), to: r.to.trim(), transform: r.transform || undefined, verified: r.verified })),
    mode: v.mode,
    syncIntervalS: seconds(v.syncIntervalS),
    missingPolicy: v.missingPolicy,
    changeAttribute: v.changeAttribute,
    passwordChange: v.passwordChange,
    passwordProtocol: v.passwordProtocol,
    groups: groupsOf(v),
  };
}

export function fromSettings(s: TDirectorySettings): TDirectoryValues {
  return {
    ...EMPTY_VALUES,
    id: s.id,
    name: s.name,
    enabled: s.enabled,
    url: s.url,
    startTls: s.startTls,
    storedCa: s.hasCaCert,
    bindDn: s.bindDn,
    baseDn: s.baseDn,
    userFilter: s.userFilter,
    loginAttribute: s.loginAttribute,
    idAttribute: s.idAttribute,
    disabledFilter: s.disabledFilter ?? "",
    attributes: s.attributes.map((r) => ({ from: r.from, to: r.to, transform: r.transform ?? "", verified: r.verified })),
    mode: s.mode,
    syncIntervalS: String(s.syncIntervalS),
    missingPolicy: s.missingPolicy,
    changeAttribute: s.changeAttribute,
    passwordChange: s.passwordChange,
    passwordProtocol: s.passwordProtocol,
    ...(s.groups
      ? {
          groupsOn: true,
          groupsBaseDn: s.groups.baseDn,
          groupsFilter: s.groups.filter,
          groupsName: s.groups.nameAttribute,
          groupsMember: s.groups.memberAttribute,
          groupsNesting: s.groups.nesting,
          groupsProfile: s.groups.profile,
          groupsIdPrefix: s.groups.idPrefix ?? "",
          groupsOnly: (s.groups.only ?? []).join("\n"),
        }
      : {}),
  };
}
