{{/* The countersign container's environment, every variable the chart sets (extraEnv apart): the
Deployment checks that extraEnv names none of them. */}}
{{- define "countersign.serviceEnv" -}}
{{- $gitSync := eq .Values.policies.source "gitSync" }}
{{ include "countersign.databaseEnv" . }}
{{- if not .Values.migrations.hook }}
{{ include "countersign.migrateDatabaseEnv" . }}
{{- end }}
- name: COUNTERSIGN_WEBHOOK_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ required "webhookToken.existingSecret is required: the webhook is never open in a cluster" .Values.webhookToken.existingSecret }}
      key: {{ .Values.webhookToken.key }}
{{- if .Values.adminToken.existingSecret }}
- name: COUNTERSIGN_ADMIN_TOKEN
  valueFrom:
    secretKeyRef:
      name: {{ .Values.adminToken.existingSecret }}
      key: {{ .Values.adminToken.key }}
{{- end }}
- name: COUNTERSIGN_HOST
  value: "0.0.0.0"
- name: COUNTERSIGN_PORT
  value: {{ .Values.service.port | quote }}
- name: COUNTERSIGN_POLICIES
  value: {{ include "countersign.policiesDir" . | quote }}
# Links in the bundle are followed while they stay inside the mounted volume.
- name: COUNTERSIGN_POLICIES_ROOT
  value: {{ if $gitSync }}"/git"{{ else }}"/etc/countersign/policies"{{ end }}
- name: COUNTERSIGN_MIGRATE
  value: {{ (not .Values.migrations.hook) | quote }}
- name: COUNTERSIGN_DATA_DIR
  value: /tmp/countersign
- name: COUNTERSIGN_LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- if .Values.custodyApi.enabled }}
- name: COUNTERSIGN_API_URL
  value: {{ required "custodyApi.url is required when custodyApi.enabled" .Values.custodyApi.url | quote }}
- name: COUNTERSIGN_SERVICE_ACCOUNT_EMAIL
  value: {{ required "custodyApi.serviceAccountEmail is required when custodyApi.enabled" .Values.custodyApi.serviceAccountEmail | quote }}
- name: COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE
  value: /etc/countersign/service-account/{{ .Values.custodyApi.serviceAccountKey.key }}
- name: COUNTERSIGN_VAULTS
  value: {{ required "custodyApi.vaults needs at least one vault id when custodyApi.enabled (the service refuses to start without)" (join "," .Values.custodyApi.vaults) | quote }}
- name: COUNTERSIGN_ADDRESS_BOOK_REFRESH
  value: {{ include "countersign.timerPeriod" (dict "name" "custodyApi.refresh" "value" .Values.custodyApi.refresh) | quote }}
- name: COUNTERSIGN_ADDRESS_BOOK_MAX_AGE
  value: {{ include "countersign.timerPeriod" (dict "name" "custodyApi.maxAge" "value" .Values.custodyApi.maxAge) | quote }}
- name: COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS
  value: {{ .Values.custodyApi.maxItems | int64 | quote }}
- name: COUNTERSIGN_ADDRESS_BOOK_MAX_MIB
  value: {{ .Values.custodyApi.maxMiB | int64 | quote }}
{{- end }}
{{- with .Values.assetPrices }}
- name: COUNTERSIGN_ASSET_PRICES
  value: {{ toJson . | quote }}
{{- end }}
- name: COUNTERSIGN_PRICE_MAX_AGE
  value: {{ .Values.priceMaxAge | quote }}
{{- with .Values.assetDecimals }}
- name: COUNTERSIGN_ASSET_DECIMALS
  value: {{ toJson . | quote }}
{{- end }}
{{- if .Values.events.enabled }}
- name: COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE
  value: /etc/countersign/events/{{ .Values.events.publicKey.key }}
{{- end }}
{{- include "countersign.reviewEnv" . }}
{{- with .Values.trustProxy }}
- name: COUNTERSIGN_TRUST_PROXY
  value: {{ . | quote }}
{{- end }}
{{- with include "countersign.telemetryEnv" . | trim }}
{{ . }}
{{- end }}
{{- end }}

{{/* Human review: the OpenID Connect provider, the reviewer tokens file and the notification hook. */}}
{{- define "countersign.reviewEnv" -}}
{{- $oidc := .Values.review.oidc }}
{{- if $oidc.issuer }}
- name: COUNTERSIGN_OIDC_ISSUER
  value: {{ $oidc.issuer | quote }}
- name: COUNTERSIGN_OIDC_AUDIENCE
  value: {{ required "review.oidc.audience is required with review.oidc.issuer (the service refuses to start without)" $oidc.audience | quote }}
{{- with $oidc.identityClaim }}
- name: COUNTERSIGN_OIDC_IDENTITY_CLAIM
  value: {{ . | quote }}
{{- end }}
{{- else if or $oidc.audience $oidc.identityClaim }}
{{- fail "review.oidc.audience and .identityClaim need review.oidc.issuer (the service refuses an audience without an issuer)" }}
{{- end }}
{{- with .Values.review.reviewerTokens.existingSecret }}
- name: COUNTERSIGN_REVIEWER_TOKENS_FILE
  value: /etc/countersign/reviewers/{{ $.Values.review.reviewerTokens.key }}
{{- end }}
{{- with .Values.review.notification.existingSecret }}
- name: COUNTERSIGN_REVIEW_WEBHOOK_URL
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: {{ $.Values.review.notification.key }}
{{- end }}
{{- end }}
