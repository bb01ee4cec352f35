using System;
using System.IO;
using Mono.Cecil;

// Usage: IlOnlyRewriter <input directory> <output directory> <assembly file name>...
// Each named assembly is read from the input directory and written to the output directory with its
// ReadyToRun code dropped: the IL is kept, the module is marked IL-only and machine-neutral, so any
// runtime (here: the win-x64 runtime under Wine) compiles it itself. Satellite resource assemblies
// (<culture>/<name>.resources.dll) are copied beside it unchanged: they hold no code.
if (args.Length < 3)
{
    Console.Error.WriteLine("usage: IlOnlyRewriter <input directory> <output directory> <assembly>...");
    return 2;
}

string input = args[0];
string output = args[1];
Directory.CreateDirectory(output);
for (int i = 2; i < args.Length; i++)
{
    string name = args[i];
    using (var module = ModuleDefinition.ReadModule(Path.Combine(input, name)))
    {
        module.Attributes &= ~ModuleAttributes.ILLibrary; // the ReadyToRun marker
        module.Attributes |= ModuleAttributes.ILOnly;
        module.Attributes &= ~(ModuleAttributes.Required32Bit | ModuleAttributes.Preferred32Bit);
        module.Architecture = TargetArchitecture.I386; // "AnyCPU" in a PE header
        module.Write(Path.Combine(output, name));
    }

    string resources = Path.GetFileNameWithoutExtension(name) + ".resources.dll";
    foreach (string culture in Directory.GetDirectories(input))
    {
        string satellite = Path.Combine(culture, resources);
        if (File.Exists(satellite))
        {
            string target = Path.Combine(output, Path.GetFileName(culture));
            Directory.CreateDirectory(target);
            File.Copy(satellite, Path.Combine(target, resources), overwrite: true);
        }
    }

    Console.WriteLine($"IL-only: {name}");
}

return 0;
