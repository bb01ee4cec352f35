using System;
using System.Collections.Generic;

namespace CloneCopy.BuildCompare;

/// <summary>
/// The user's build arguments as `dotnet restore` takes them. The comparison restores once and then builds with
/// --no-restore, both with those arguments; `dotnet build`'s -c/--configuration is not one of restore's (it fails with
/// MSB1001, "Unknown switch"), so it reaches the restore as the MSBuild property it sets. Everything else is unchanged.
/// </summary>
public static class RestoreArguments
{
    private static readonly string[] ConfigurationSwitches = ["-c", "--configuration"];

    public static IReadOnlyList<string> From(IReadOnlyList<string> buildArguments)
    {
        var restore = new List<string>(buildArguments.Count);
        for (int i = 0; i < buildArguments.Count; i++)
        {
            string argument = buildArguments[i];
            if (Array.IndexOf(ConfigurationSwitches, argument) >= 0 && i + 1 < buildArguments.Count)
            {
                restore.Add("-p:Configuration=" + buildArguments[++i]);
            }
            else if (InlineValue(argument) is string configuration)
            {
                restore.Add("-p:Configuration=" + configuration);
            }
            else
            {
                restore.Add(argument);
            }
        }

        return restore;
    }

    /// <summary>"-c:Release", "--configuration=Release": the value, as the .NET CLI reads either delimiter.</summary>
    private static string? InlineValue(string argument)
    {
        foreach (string name in ConfigurationSwitches)
        {
            if (argument.Length > name.Length + 1 && argument.StartsWith(name, StringComparison.Ordinal) && argument[name.Length] is ':' or '=')
            {
                return argument[(name.Length + 1)..];
            }
        }

        return null;
    }
}
