{{/* Names ------------------------------------------------------------------------------------------- */}}

{{- define "vgpu.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "vgpu.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "vgpu.namespace" -}}
{{- default .Release.Namespace .Values.namespaceOverride }}
{{- end }}

{{/* the scheduler StatefulSet, its Service, ServiceAccount and the names derived from them */}}
{{- define "vgpu.scheduler" -}}
{{- printf "%s-scheduler" (include "vgpu.fullname" .) | trunc 52 | trimSuffix "-" }}
{{- end }}

{{/* headless Service of the Hazelcast members */}}
{{- define "vgpu.scheduler.hazelcast" -}}
{{- printf "%s-hz" (include "vgpu.scheduler" .) }}
{{- end }}

{{- define "vgpu.scheduler.tlsSecret" -}}
{{- printf "%s-tls" (include "vgpu.scheduler" .) }}
{{- end }}

{{/* kube-scheduler's client certificate for the extender (same CA as the serving certificate) */}}
{{- define "vgpu.scheduler.clientTlsSecret" -}}
{{- printf "%s-client-tls" (include "vgpu.scheduler" .) }}
{{- end }}

{{/* whether /filter and /bind require kube-scheduler's client certificate (and the chart issues one) */}}
{{- define "vgpu.scheduler.clientAuth" -}}
{{- if not .Values.scheduler.extender.clientAuth.insecureDisabled }}true{{ end }}
{{- end }}

{{/* the client certificate common names the gateway accepts: the chart's own first */}}
{{- define "vgpu.scheduler.clientNames" -}}
{{- $c := .Values.scheduler.extender.clientAuth }}
{{- prepend ($c.extraAllowedNames | default list) $c.commonName | uniq | join "," }}
{{- end }}

{{- define "vgpu.scheduler.serviceAccount" -}}
{{- if .Values.scheduler.serviceAccount.create }}
{{- default (include "vgpu.scheduler" .) .Values.scheduler.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.scheduler.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "vgpu.devicePlugin" -}}
{{- printf "%s-device-plugin" (include "vgpu.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "vgpu.devicePlugin.serviceAccount" -}}
{{- if .Values.devicePlugin.serviceAccount.create }}
{{- default (include "vgpu.devicePlugin" .) .Values.devicePlugin.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.devicePlugin.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* the device config ConfigMap (HAMi: <scheduler>-device), or the external one */}}
{{- define "vgpu.deviceConfig" -}}
{{- $external := (index .Values "device-config").externalConfigName }}
{{- if $external }}
{{- $external }}
{{- else }}
{{- printf "%s-device" (include "vgpu.scheduler" .) }}
{{- end }}
{{- end }}

{{- define "vgpu.devicePlugin.nodeConfig" -}}
{{- default (include "vgpu.devicePlugin" .) .Values.devicePlugin.nodeConfiguration.externalConfigName }}
{{- end }}

{{/* Labels ------------------------------------------------------------------------------------------ */}}

{{- define "vgpu.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vgpu.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "vgpu.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "vgpu.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.global.labels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{- define "vgpu.scheduler.selectorLabels" -}}
{{ include "vgpu.selectorLabels" . }}
app.kubernetes.io/component: scheduler
{{- end }}

{{- define "vgpu.devicePlugin.selectorLabels" -}}
{{ include "vgpu.selectorLabels" . }}
app.kubernetes.io/component: device-plugin
{{- end }}

{{/* Images ------------------------------------------------------------------------------------------ */}}

{{/* image reference from {registry, repository, tag} with a default tag; global.imageRegistry wins */}}
{{- define "vgpu.image" -}}
{{- $registry := default .image.registry .global.imageRegistry }}
{{- $tag := default .defaultTag .image.tag }}
{{- if $registry }}
{{- printf "%s/%s:%s" $registry .image.repository $tag }}
{{- else }}
{{- printf "%s:%s" .image.repository $tag }}
{{- end }}
{{- end }}

{{- define "vgpu.appTag" -}}
{{- default .Chart.AppVersion .Values.global.imageTag }}
{{- end }}

{{/* kube-scheduler's tag: the cluster's v<major>.<minor>.<patch>, without distribution suffixes */}}
{{- define "vgpu.kubeSchedulerTag" -}}
{{- $v := regexFind "^v?[0-9]+\\.[0-9]+\\.[0-9]+" .Capabilities.KubeVersion.Version }}
{{- printf "v%s" (trimPrefix "v" $v) }}
{{- end }}

{{- define "vgpu.imagePullSecrets" -}}
{{- with .Values.global.imagePullSecrets }}
imagePullSecrets:
{{- range . }}
{{- if kindIs "string" . }}
  - name: {{ . }}
{{- else }}
  - {{ toYaml . | nindent 4 | trim }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}

{{/* JVM ----------------------------------------------------------------------------------------------- */}}

{{/* JDK_JAVA_OPTIONS from {heap, jvmOptions, what}: the heap flag first, from the container limit or explicit */}}
{{- define "vgpu.jvmOptions" -}}
{{- $heap := .heap | default dict }}
{{- $flag := "" }}
{{- if $heap.max }}
{{- $flag = printf "-Xmx%s" (toString $heap.max) }}
{{- else }}
{{- $flag = printf "-XX:MaxRAMPercentage=%s" (toString (default 70 $heap.maxRAMPercentage)) }}
{{- end }}
{{- trim (printf "%s %s" $flag (.options | default "")) }}
{{- end }}

{{/* fails unless the heap of {heap, jvmOptions, limit, what} is bounded: by a memory limit or an explicit max */}}
{{- define "vgpu.validateHeap" -}}
{{- $heap := .heap | default dict }}
{{- if regexMatch "(^|\\s)(-Xmx|-XX:MaxRAMPercentage|-XX:MaxHeapSize|-XX:MaxRAMFraction|-XX:MaxRAM=)" (.options | default "") }}
{{- fail (printf "%s.jvmOptions sets the heap size: set %s.heap.max or %s.heap.maxRAMPercentage instead" .what .what .what) }}
{{- end }}
{{- if $heap.max }}
{{- if not (regexMatch "^[0-9]+[kKmMgG]?$" (toString $heap.max)) }}
{{- fail (printf "%s.heap.max %q is not a JVM size such as 1536m or 2g" .what (toString $heap.max)) }}
{{- end }}
{{- else }}
{{- $p := float64 (default 70 $heap.maxRAMPercentage) }}
{{- if or (lt $p 10.0) (gt $p 90.0) }}
{{- fail (printf "%s.heap.maxRAMPercentage (%v) must be between 10 and 90: the JVM needs memory besides the heap" .what $heap.maxRAMPercentage) }}
{{- end }}
{{- if not .limit }}
{{- fail (printf "%s.resources.limits.memory is not set: the heap (%v %% of the memory the JVM sees) would grow with the node's memory; set a memory limit or %s.heap.max" .what $heap.maxRAMPercentage .what) }}
{{- end }}
{{- end }}
{{- end }}

{{/* Scheduling settings ----------------------------------------------------------------------------- */}}

{{/* the scheduler names, comma separated: <schedulerName> then <schedulerName>-i for the other shards */}}
{{- define "vgpu.schedulerNames" -}}
{{- $names := list }}
{{- range $i := until (int .Values.scheduler.shards) }}
{{- if eq $i 0 }}
{{- $names = append $names $.Values.schedulerName }}
{{- else }}
{{- $names = append $names (printf "%s-%d" $.Values.schedulerName $i) }}
{{- end }}
{{- end }}
{{- join "," $names }}
{{- end }}

{{/* every resource the extender manages (kube-scheduler managedResources, webhook matchConditions) */}}
{{- define "vgpu.resources" -}}
{{- list .Values.resourceName .Values.resourceMem .Values.resourceMemPercentage .Values.resourceCores .Values.resourcePriority | uniq | join "," }}
{{- end }}

{{/* a Go duration (h, m, s, ms, us, ns parts) in seconds, as a float; fails on anything else */}}
{{- define "vgpu.durationSeconds" -}}
{{- $text := toString . }}
{{- if not (regexMatch "^([0-9]+(\\.[0-9]+)?(h|ms|us|ns|m|s))+$" $text) }}
{{- fail (printf "%q is not a Go duration such as 28s, 1m30s or 500ms" $text) }}
{{- end }}
{{- $factors := dict "h" 3600.0 "m" 60.0 "s" 1.0 "ms" 0.001 "us" 0.000001 "ns" 0.000000001 }}
{{- $total := 0.0 }}
{{- range regexFindAll "[0-9]+(\\.[0-9]+)?(h|ms|us|ns|m|s)" $text -1 }}
{{- $number := regexFind "^[0-9]+(\\.[0-9]+)?" . }}
{{- $unit := trimPrefix $number . }}
{{- $total = addf $total (mulf (float64 $number) (get $factors $unit)) }}
{{- end }}
{{- $total }}
{{- end }}

{{/* the bind's node-lock wait: the value, or 2 s below the extender timeout */}}
{{- define "vgpu.nodeLockWait" -}}
{{- if .Values.scheduler.nodeLockRetryTimeout }}
{{- .Values.scheduler.nodeLockRetryTimeout }}
{{- else }}
{{- printf "%ds" (sub (int .Values.scheduler.extenderHTTPTimeout) 2) }}
{{- end }}
{{- end }}

{{- define "vgpu.hazelcast.quorum" -}}
{{- if kindIs "string" .Values.scheduler.hazelcast.quorum }}
{{- if .Values.scheduler.hazelcast.quorum }}
{{- .Values.scheduler.hazelcast.quorum }}
{{- else }}
{{- add (div (int .Values.scheduler.replicas) 2) 1 }}
{{- end }}
{{- else }}
{{- int .Values.scheduler.hazelcast.quorum }}
{{- end }}
{{- end }}

{{/* the stable DNS names of every scheduler pod's Hazelcast member */}}
{{- define "vgpu.hazelcast.members" -}}
{{- $members := list }}
{{- $sts := include "vgpu.scheduler" . }}
{{- $svc := include "vgpu.scheduler.hazelcast" . }}
{{- $ns := include "vgpu.namespace" . }}
{{- range $i := until (int .Values.scheduler.replicas) }}
{{- $members = append $members (printf "%s-%d.%s.%s.svc:%d" $sts $i $svc $ns (int $.Values.scheduler.hazelcast.port)) }}
{{- end }}
{{- join "," $members }}
{{- end }}

{{/* k=v,k2=v2 from a map, sorted */}}
{{- define "vgpu.labelSelector" -}}
{{- $pairs := list }}
{{- range $k, $v := . }}
{{- $pairs = append $pairs (printf "%s=%s" $k (toString $v)) }}
{{- end }}
{{- join "," $pairs }}
{{- end }}
