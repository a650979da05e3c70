"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Notice, PortalLoadFailed, PortalLoading } from "../portal-states.tsx";
import { useTRPC } from "../trpc.ts";
import { ContactCard } from "./contact-card.tsx";
import { useProfileText } from "./i18n.ts";
import { ProfileForm } from "./profile-form.tsx";
import type { TNotice } from "./types.ts";

/** "Changed elsewhere": nothing was saved; reloading shows the current data and starts the forms again. */
function StaleAlert({ onReload, reloading }: { onReload: () => void; reloading: boolean }) {
  const u = useProfileText();
  return (
    <div className="ui-alert ui-alert--error portal-stale" role="alert">
      <p>{u("profile.stale")}</p>
      <Button variant="primary" onClick={onReload} disabled={reloading}>
        {u("profile.reload")}
      </Button>
    </div>
  );
}

/** The profile page: the person's attributes, then their e-mail and phone, each changed by code. */
export function ProfileScreen() {
  const u = useProfileText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const profile = useQuery(trpc.portal.profile.get.queryOptions());
  const [notice, setNotice] = useState<TNotice>(null);
  const [stale, setStale] = useState(false);

  const onStale = () => {
    setNotice(null);
    setStale(true);
  };
  async function reload() {
    await queryClient.invalidateQueries({ queryKey: trpc.portal.profile.get.queryKey() });
    setStale(false);
  }

  return (
    <>
      <h1 className="page-title">{u("profile.title")}</h1>
      <p className="portal-intro">{u("profile.intro")}</p>
      {stale ? <StaleAlert onReload={reload} reloading={profile.isFetching} /> : null}
      {notice ? <Notice text={notice.text} error={notice.error} /> : null}
      {profile.isPending ? (
        <PortalLoading />
      ) : profile.isError ? (
        <PortalLoadFailed label={u("profile.loadFailed")} error={profile.error} onRetry={() => profile.refetch()} />
      ) : (
        <>
          <ProfileForm key={profile.data.instanceId} profile={profile.data} setNotice={setNotice} onStale={onStale} />
          {profile.data.contacts.length ? (
            <section className="portal-contacts" aria-labelledby="contacts-title">
              <h2 id="contacts-title" className="portal-section-title">
                {u("contacts.title")}
              </h2>
              <div className="portal-contacts__grid">
                {profile.data.contacts.map((c) => (
                  <ContactCard
                    key={c.attr}
                    contact={c}
                    instanceId={profile.data.instanceId}
                    readAt={profile.dataUpdatedAt}
                    setNotice={setNotice}
                    onStale={onStale}
                  />
                ))}
              </div>
            </section>
          ) : null}
        </>
      )}
    </>
  );
}
