{{/* Names and labels, in the usual Helm shape. */}}
{{- define "countersign.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "countersign.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "countersign.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "countersign.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "countersign.selectorLabels" -}}
app.kubernetes.io/name: {{ include "countersign.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "countersign.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "countersign.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "countersign.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "countersign.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "countersign.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* A bundle path (`tests/limits.yaml`) as a ConfigMap key, which cannot hold `/`. */}}
{{- define "countersign.policyKey" -}}
{{- . | replace "/" "__" }}
{{- end }}

{{/* Where the bundle appears in the countersign container. git-sync publishes each revision by
swapping the `current` link under its root; the bundle is read through that link. */}}
{{- define "countersign.policiesDir" -}}
{{- if eq .Values.policies.source "gitSync" }}
{{- $sub := trimAll "/" .Values.policies.gitSync.subPath }}
{{- if $sub }}/git/current/{{ $sub }}{{ else }}/git/current{{ end }}
{{- else }}/etc/countersign/policies
{{- end }}
{{- end }}

{{/* The environment shared by the service and the migration Job: the database. */}}
{{- define "countersign.databaseEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret: the Secret holding the Postgres URL is required" .Values.database.existingSecret }}
      key: {{ .Values.database.key }}
{{- end }}

{{/* The owner's URL for migrations, when the service runs as the writer role. */}}
{{- define "countersign.migrateDatabaseEnv" -}}
{{- if .Values.database.migrateKey }}
- name: COUNTERSIGN_MIGRATE_DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.existingSecret }}
      key: {{ .Values.database.migrateKey }}
{{- end }}
{{- end }}

{{/* git-sync's arguments; `oneTime` for the init container that makes the first checkout. */}}
{{- define "countersign.gitSyncArgs" -}}
{{- $g := .root.Values.policies.gitSync -}}
- --repo={{ required "policies.gitSync.repo is required when policies.source is gitSync" $g.repo }}
- --ref={{ $g.ref }}
- --root=/git
- --link=current
- --depth={{ $g.depth }}
- --period={{ $g.period }}
- --group-write
{{- if eq $g.auth "https" }}
- --password-file=/etc/git-secret/password
{{- else if eq $g.auth "ssh" }}
- --ssh-key-file=/etc/git-secret/ssh
- --ssh-known-hosts-file=/etc/git-secret/known_hosts
{{- end }}
{{- if .oneTime }}
- --one-time
{{- else }}
- --max-failures=-1
{{- end }}
{{- end }}

{{/* What the git-sync init container and sidecar share: volumes, credentials, hardening. */}}
{{- define "countersign.gitSyncContainerCommon" -}}
{{- $g := .Values.policies.gitSync -}}
{{- if eq $g.auth "https" }}
env:
  - name: GITSYNC_USERNAME
    valueFrom:
      secretKeyRef:
        name: {{ $g.existingSecret }}
        key: username
{{- end }}
volumeMounts:
  - name: policies-git
    mountPath: /git
  - name: git-tmp
    mountPath: /tmp
  {{- if ne $g.auth "none" }}
  - name: git-secret
    mountPath: /etc/git-secret
    readOnly: true
  {{- end }}
resources:
  {{- toYaml $g.resources | nindent 2 }}
securityContext:
  runAsNonRoot: true
  # git-sync's image user; the pod's fsGroup lets countersign read what it writes.
  runAsUser: 65533
  runAsGroup: 65533
  readOnlyRootFilesystem: true
  allowPrivilegeEscalation: false
  capabilities:
    drop: [ALL]
  seccompProfile:
    type: RuntimeDefault
{{- end }}

{{/* OpenTelemetry through its standard variables; nothing is set when telemetry is off. */}}
{{- define "countersign.telemetryEnv" -}}
{{- $t := .Values.telemetry -}}
{{- if or $t.otlpEndpoint $t.metrics.enabled }}
- name: OTEL_SERVICE_NAME
  value: {{ include "countersign.fullname" . | quote }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: "k8s.namespace.name={{ .Release.Namespace }},service.version={{ default .Chart.AppVersion .Values.image.tag }}"
# Logs go to stdout as JSON lines; no idle OTLP log exporter.
- name: OTEL_LOGS_EXPORTER
  value: none
{{- end }}
{{- if $t.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $t.otlpEndpoint | quote }}
- name: OTEL_TRACES_EXPORTER
  value: otlp
{{- else if $t.metrics.enabled }}
- name: OTEL_TRACES_EXPORTER
  value: none
{{- end }}
{{- if $t.metrics.enabled }}
- name: OTEL_METRICS_EXPORTER
  value: {{ if $t.otlpEndpoint }}"otlp,prometheus"{{ else }}prometheus{{ end }}
# Scraped through the pod's address (unset, countersign binds the exporter to COUNTERSIGN_HOST).
- name: OTEL_EXPORTER_PROMETHEUS_HOST
  value: "0.0.0.0"
- name: OTEL_EXPORTER_PROMETHEUS_PORT
  value: {{ $t.metrics.port | quote }}
{{- else if $t.otlpEndpoint }}
- name: OTEL_METRICS_EXPORTER
  value: otlp
{{- end }}
{{- end }}

{{/* A period the service arms a timer with (custodyApi.refresh, .maxAge), as the service reads it:
at most 24d (LONGEST_TIMER in src/config.ts; Node fires a longer timer at once). The schema has
made it a positive whole number of s, m, h or d; a longer one would stop every pod at start. */}}
{{- define "countersign.timerPeriod" -}}
{{- $units := dict "s" 1 "m" 60 "h" 3600 "d" 86400 -}}
{{- $unit := regexFind "[smhd]$" .value -}}
{{- $seconds := mul (trimSuffix $unit .value | int64) (get $units $unit) -}}
{{- if gt $seconds 2073600 -}}
{{- fail (printf "%s is %s: at most 24d (the service refuses a longer period at start)" .name .value) -}}
{{- end -}}
{{- .value -}}
{{- end }}
