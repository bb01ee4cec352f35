using System;
using Microsoft.Build.Framework;

namespace CloneCopy;

/// <summary>
/// Objects that live for one build on one MSBuild node (task objects registered with the Build lifetime):
/// what was said once, and each project's statistics. A reused node starts the next build without them.
/// </summary>
internal static class BuildScoped
{
    private static readonly object RegistrationLock = new();

    /// <summary>The object registered under <paramref name="key"/> in this build, or null (none yet, or a host without per-build storage).</summary>
    public static T? Get<T>(IBuildEngine engine, string key)
        where T : class =>
        (engine as IBuildEngine4)?.GetRegisteredTaskObject(key, RegisteredTaskObjectLifetime.Build) as T;

    /// <summary>The object registered under <paramref name="key"/> in this build, created once; null where the host cannot keep one.</summary>
    public static T? GetOrCreate<T>(IBuildEngine engine, string key, Func<T> create)
        where T : class
    {
        if (engine is not IBuildEngine4 engine4)
        {
            return null;
        }

        if (Get<T>(engine, key) is T existing)
        {
            return existing;
        }

        // Tasks on several threads of this node may get here together; one registers, all use that one.
        lock (RegistrationLock)
        {
            if (Get<T>(engine, key) is T registered)
            {
                return registered;
            }

            T created = create();
            engine4.RegisterTaskObject(key, created, RegisteredTaskObjectLifetime.Build, allowEarlyCollection: false);
            return created;
        }
    }
}
