import { X509Certificate } from "node:crypto";
import { FilterParser } from "ldapts";
import { AppError } from "../errors/app-error.ts";
import { sameJson } from "../import/canonical-json.ts";
import type { TDirectory } from "./directories.repository.ts";
import { directoryEndpoint } from "./directory-url.ts";
import type { TDirectoryAttributeRule, TDirectorySettings } from "./directory.schemas.ts";

/*
 * A directory as it will be stored, from what the import document or the console gives. The checks
 * zod cannot make (the URL's rules, the filters, the CA, the attribute rules taken together) are
 * made here once for both; every refusal names the field it is about, so the import can say where in
 * the document and the console can put it beside the field.
 */

/** Refuses one field: directory.settings_invalid, with the field as the item's position. */
export function directorySettingRefused(field: string, desc: string): never {
  throw new AppError("directory.settings_invalid", { desc: `${field}: ${desc}`, items: [{ error: "wrong_value", desc, pos: field }] });
}

function checkFilter(filter: string | null | undefined, field: string): void {
  if (filter === undefined || filter === null) return;
  try {
    FilterParser.parseString(filter);
  } catch (e) {
    directorySettingRefused(field, `is not an LDAP filter (RFC 4515): ${(e as Error).message}`);
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** PEM certificates, each one readable: a CA that is not one would only fail later, at every connection. */
function checkCaCert(pem: string): void {
  const blocks = pem.match(PEM_BLOCK);
  if (!blocks) directorySettingRefused("caCert", "must be PEM certificates");
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      directorySettingRefused("caCert", "must be PEM certificates: one of them cannot be read");
    }
  }
}

/** The rules together: one source per catalog attribute, and "verified" only where it means something. */
function checkAttributeRules(rules: TDirectoryAttributeRule[]): void {
  const seen = new Set<string>();
  for (const [i, rule] of rules.entries()) {
    // The account's id and its lock are the service's: a directory keeping them would leave administrators unable to lock it.
    if (rule.to === "sub" || rule.to === "locked") directorySettingRefused(`attributes.${i}.to`, `${rule.to} is not filled from a directory`);
    if (seen.has(rule.to)) directorySettingRefused(`attributes.${i}.to`, `${rule.to} is filled by an earlier rule`);
    seen.add(rule.to);
    if (rule.verified && rule.transform !== "email" && rule.transform !== "phone") directorySettingRefused(`attributes.${i}.verified`, "only an e-mail or phone (transform email or phone) is marked confirmed");
  }
}

/** Refuses settings that cannot be used, naming the field: a URL that would send passwords in the clear, a filter that is not one, a CA that is not PEM. */
export function checkDirectorySettings(s: TDirectorySettings, caCert: string | null): void {
  const endpoint = directoryEndpoint(s.url, s.startTls);
  if ("problem" in endpoint) directorySettingRefused("url", endpoint.problem);
  checkFilter(s.userFilter, "userFilter");
  checkFilter(s.disabledFilter, "disabledFilter");
  checkFilter(s.groups?.filter, "groups.filter");
  if (caCert !== null) checkCaCert(caCert);
  checkAttributeRules(s.attributes);
}

/** The row to store; `bindPassword` is sealed already. */
export function directoryRowOf(id: string, s: TDirectorySettings, caCert: string | null, bindPassword: string): TDirectory {
  return {
    id,
    name: s.name,
    enabled: s.enabled,
    url: s.url,
    startTls: s.startTls,
    caCert,
    bindDn: s.bindDn,
    bindPassword,
    baseDn: s.baseDn,
    userFilter: s.userFilter,
    loginAttribute: s.loginAttribute,
    idAttribute: s.idAttribute,
    disabledFilter: s.disabledFilter ?? null,
    attributeMap: s.attributes,
    mode: s.mode,
    syncIntervalS: s.syncIntervalS,
    missingPolicy: s.missingPolicy,
    changeAttribute: s.changeAttribute,
    passwordChange: s.passwordChange,
    passwordProtocol: s.passwordProtocol,
    groupMap: s.groups ?? null,
  };
}

/** The settings of a stored directory, as they are given (the CA and the password apart). */
export function settingsOf(d: TDirectory): TDirectorySettings {
  return {
    name: d.name,
    enabled: d.enabled,
    url: d.url,
    startTls: d.startTls,
    bindDn: d.bindDn,
    baseDn: d.baseDn,
    userFilter: d.userFilter,
    loginAttribute: d.loginAttribute,
    idAttribute: d.idAttribute,
    ...(d.disabledFilter === null ? {} : { disabledFilter: d.disabledFilter }),
    attributes: d.attributeMap,
    mode: d.mode,
    syncIntervalS: d.syncIntervalS,
    missingPolicy: d.missingPolicy,
    changeAttribute: d.changeAttribute,
    passwordChange: d.passwordChange,
    passwordProtocol: d.passwordProtocol,
    ...(d.groupMap === null ? {} : { groups: d.groupMap }),
  };
}

/**
 * Whether new settings make the last synchronisation's mark meaningless: another server (USNs are a
 * domain controller's own), another part of the tree, another kind of mark. The next run is then a
 * full one, which also finds the accounts whose entries are no longer in scope.
 */
export function outdatesSyncMark(stored: TDirectory, next: TDirectory): boolean {
  return stored.url !== next.url || stored.baseDn !== next.baseDn || stored.userFilter !== next.userFilter || stored.changeAttribute !== next.changeAttribute;
}

/** The names of the settings that differ, for the audit trail (never their values: one of them is the password). */
export function changedSettings(stored: TDirectory, next: TDirectory): string[] {
  return (Object.keys(next) as (keyof TDirectory)[]).filter((k) => !sameJson(stored[k], next[k]));
}
