{{/* Common names and labels. */}}
{{- define "inquest.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "inquest.labels" -}}
app.kubernetes.io/part-of: inquest
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* "<fullname>-<service>" for a service name passed as .name in a dict with .root. */}}
{{- define "inquest.serviceName" -}}
{{- printf "%s-%s" (include "inquest.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "inquest.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .name (default .root.Chart.AppVersion .root.Values.image.tag) -}}
{{- end -}}

{{/* Secrets every service may read, by reference only (may render nothing). */}}
{{- define "inquest.secretEnv" -}}
{{- if .Values.vault.tokenSecret.name }}
- name: INQUEST_VAULT_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ .Values.vault.tokenSecret.name | quote }}, key: {{ .Values.vault.tokenSecret.key | quote }} }
{{- end }}
{{- if .Values.qdrant.apiKeySecret.name }}
- name: INQUEST_QDRANT_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ .Values.qdrant.apiKeySecret.name | quote }}, key: {{ .Values.qdrant.apiKeySecret.key | quote }} }
{{- end }}
{{- end -}}

{{/* The ServiceAccount the release's pods run as. */}}
{{- define "inquest.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "inquest.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Pod selector of one component: dict "root" $ "name" <component>. */}}
{{- define "inquest.selectorLabels" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end -}}

{{/* The chart-made Secret of connection URLs (for those not read from an existing Secret). */}}
{{- define "inquest.connectionsSecret" -}}
{{- printf "%s-connections" (include "inquest.fullname" .) -}}
{{- end -}}

{{/* The NATS URL of the bundled server. */}}
{{- define "inquest.bundledNatsUrl" -}}
{{- printf "nats://%s:4222" (include "inquest.serviceName" (dict "root" . "name" "nats")) -}}
{{- end -}}

{{/* MongoDB, NATS and Qdrant URLs, from the chart's Secret or the user's (they may carry credentials). */}}
{{- define "inquest.connectionEnv" -}}
{{- $root := . }}
{{- range $var, $key := dict "INQUEST_MONGODB_URL" "mongodb" "INQUEST_NATS_URL" "nats" "INQUEST_QDRANT_URL" "qdrant" }}
{{- $c := index $root.Values $key }}
{{- $bundled := and (eq $key "nats") $root.Values.nats.bundled.enabled }}
- name: {{ $var }}
  valueFrom:
    secretKeyRef:
      {{- if and $c.existingSecret (not $bundled) }}
      name: {{ $c.existingSecret | quote }}
      key: {{ $c.existingSecretKey | quote }}
      {{- else }}
      name: {{ include "inquest.connectionsSecret" $root | quote }}
      key: {{ printf "%s-url" $key | quote }}
      {{- end }}
{{- end }}
{{- end -}}

{{/* LLM and embeddings keys, for the services that call a model: dict "root" $ "name" <service>. */}}
{{- define "inquest.modelEnv" -}}
{{- $v := .root.Values }}
{{- if or (eq .name "investigation-runner") (eq .name "knowledge-raptor") }}
{{- if $v.llm.apiKeySecret.name }}
- name: INQUEST_LLM_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ $v.llm.apiKeySecret.name | quote }}, key: {{ $v.llm.apiKeySecret.key | quote }} }
{{- end }}
{{- end }}
{{- if and (eq .name "knowledge-raptor") $v.embeddings.apiKeySecret.name }}
- name: INQUEST_EMBEDDINGS_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ $v.embeddings.apiKeySecret.name | quote }}, key: {{ $v.embeddings.apiKeySecret.key | quote }} }
{{- end }}
{{- end -}}
