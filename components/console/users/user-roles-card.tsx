"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TMessageKey } from "../../i18n.ts";
import { useI18n } from "../../i18n-provider.tsx";
import { CheckboxField } from "../../ui/field.tsx";
import { Button } from "../../ui/button.tsx";
import { messageOf } from "../call-errors.ts";
import { Notice } from "../list-parts.tsx";
import { useTRPC } from "../trpc.ts";
import { Card } from "../user-sessions/card-parts.tsx";
import { useCan } from "../viewer.tsx";
import { useUsersText } from "./i18n.ts";
import type { TUserDetail } from "./types.ts";

const ROLES = ["admin", "user_manager", "auditor"] as const;
type TRole = (typeof ROLES)[number];

/**
 * The account's console roles: an administrator ticks them, everyone else sees them. The server
 * keeps the last administrator's role and says so.
 */
export function UserRolesCard({ user }: { user: TUserDetail }) {
  const { t } = useI18n();
  const u = useUsersText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const canEdit = useCan("configure");
  const current = ROLES.filter((r) => user.roles.includes(r));
  const [chosen, setChosen] = useState<TRole[]>(current);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.console.users.setRoles.mutationOptions({
      onSuccess: (roles) => {
        setChosen(roles);
        setSaved(true);
        void queryClient.invalidateQueries(trpc.console.users.get.queryFilter({ sub: user.sub }));
      },
    }),
  );
  const toggle = (role: TRole, on: boolean) => {
    setSaved(false);
    save.reset();
    setChosen((c) => (on ? [...c, role] : c.filter((r) => r !== role)));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ sub: user.sub, roles: chosen });
  };
  const changed = chosen.length !== current.length || chosen.some((r) => !current.includes(r));
  return (
    <Card id="user-roles-title" title={u("roles.title")}>
      <p className="muted">{u("roles.explain")}</p>
      {canEdit ? (
        <form onSubmit={submit} noValidate aria-busy={save.isPending}>
          {ROLES.map((r) => (
            <CheckboxField key={r} label={`${t(`role.${r}` as TMessageKey)} — ${u(`roles.${r}` as Parameters<typeof u>[0])}`} checked={chosen.includes(r)} onChange={(e) => toggle(r, e.target.checked)} />
          ))}
          <Notice text={save.error ? messageOf(save.error, t) : saved ? u("roles.saved") : undefined} error={!!save.error} />
          <Button type="submit" variant="primary" disabled={!changed || save.isPending}>{u("roles.save")}</Button>
        </form>
      ) : (
        <p data-testid="user-roles">{current.length ? current.map((r) => t(`role.${r}` as TMessageKey)).join(", ") : u("roles.none")}</p>
      )}
    </Card>
  );
}
