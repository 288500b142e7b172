package io.vgpu.gateway.testing;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.CrudDispatcher;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * Teaches fabric8's CRUD mock the pod field selector {@code spec.schedulerName=<name>}, which the gateway's pod
 * informers select on (a real API server supports it; the mock only indexes metadata fields). The mock builds a
 * resource's attributes with one extractor held in two private final fields; this swaps in an extractor that
 * adds the {@code spec.schedulerName} attribute, so that lists and watches with that field selector match as on
 * a real server. Main code because the simulator's API server is; the gateway's adapter tests and the chaos
 * harness's API server install the same extractor. Reflection on the mock's internals: if a fabric8 upgrade renames the fields, {@link #install} fails
 * loudly and {@code simulate} does not start.
 */
public final class SchedulerNameFields extends KubernetesAttributesExtractor {

    private static final String FIELD = "spec.schedulerName";

    private SchedulerNameFields() {
    }

    /** Replaces the dispatcher's attribute extractor; returns the new one. */
    public static SchedulerNameFields install(KubernetesCrudDispatcher crud) {
        try {
            SchedulerNameFields extractor = new SchedulerNameFields();
            Object crdProcessor = field(KubernetesCrudDispatcher.class, "crdProcessor").get(crud);
            for (Method m : KubernetesAttributesExtractor.class.getMethods()) {
                if (m.getName().equals("setCustomResourceDefinitionProcessor")) {
                    m.invoke(extractor, crdProcessor);
                }
            }
            field(KubernetesCrudDispatcher.class, "kubernetesAttributesExtractor").set(crud, extractor);
            field(CrudDispatcher.class, "attributeExtractor").set(crud, extractor);
            return extractor;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot teach the CRUD mock spec.schedulerName (fabric8 changed?)", e);
        }
    }

    @Override
    public AttributeSet extract(HasMetadata resource) {
        AttributeSet attributes = super.extract(resource);
        String schedulerName = schedulerName(resource);
        return schedulerName == null ? attributes : attributes.add(new Attribute(FIELD, schedulerName));
    }

    private static String schedulerName(HasMetadata resource) {
        if (resource instanceof Pod pod) {
            return pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
        }
        if (resource instanceof GenericKubernetesResource generic && "Pod".equals(generic.getKind())
                && generic.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec
                && spec.get("schedulerName") instanceof String name) {
            return name;
        }
        return null;
    }

    private static Field field(Class<?> owner, String name) throws NoSuchFieldException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
