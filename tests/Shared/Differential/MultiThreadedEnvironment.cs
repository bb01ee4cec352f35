using System.Collections;
using System.Collections.Generic;
using System.IO;
using Microsoft.Build.Framework;

namespace CloneCopy.Tests.Differential;

/// <summary>
/// What a task sees under MSBuild's multithreaded mode (-mt): a TaskEnvironment with the project's directory
/// and environment, which are not the process's (projects share one process there).
/// </summary>
public static class MultiThreadedEnvironment
{
    /// <summary>The project directory <paramref name="root"/>; the process's environment plus <paramref name="variables"/>, in the task's environment only.</summary>
    public static TaskEnvironment For(string root, IReadOnlyDictionary<string, string> variables)
    {
        var environment = new Dictionary<string, string>();
        foreach (DictionaryEntry entry in System.Environment.GetEnvironmentVariables())
        {
            environment[(string)entry.Key] = (string?)entry.Value ?? string.Empty;
        }

        foreach (var (name, value) in variables)
        {
            environment[name] = value;
        }

        return TaskEnvironment.CreateWithProjectDirectoryAndEnvironment(root, environment);
    }

    /// <summary>
    /// An empty folder beside <paramref name="root"/> for the process's current directory: a relative spec
    /// resolved against it finds no source, and a file written there is missing from the compared tree.
    /// </summary>
    public static string ElsewhereThan(string root)
    {
        string elsewhere = Path.Combine(Path.GetDirectoryName(root)!, "process-directory");
        Directory.CreateDirectory(elsewhere);
        return elsewhere;
    }
}
